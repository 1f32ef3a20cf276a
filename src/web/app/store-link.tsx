import { useId, type ReactNode } from "react";
import { storefrontLink, usePublicConfig } from "@web/lib/use-public-config";
import { buttonVariants } from "@web/components/ui/button";
import { Card, CardContent } from "@web/components/ui/card";

export function StoreLink({ className, children }: { className?: string; children: ReactNode }) {
  const config = usePublicConfig();
  if (!config.data) return <span className={className}>{children}</span>;
  return (
    <a href={storefrontLink(config.data.storefrontUrl)} className={className}>
      {children}
    </a>
  );
}

/** The box below every provider's sign-in form: 'Are you lost?' with a link to the storefront (docs/product.md §1.2). */
export function LostBox() {
  const id = useId();
  return (
    <Card className="w-full max-w-md" role="region" aria-labelledby={`${id}-lost`}>
      <CardContent className="flex items-center justify-between gap-4 pt-6">
        <p id={`${id}-lost`} className="font-medium">
          Are you lost?
        </p>
        <StoreLink className={buttonVariants({ variant: "link" })}>Go to the store</StoreLink>
      </CardContent>
    </Card>
  );
}
