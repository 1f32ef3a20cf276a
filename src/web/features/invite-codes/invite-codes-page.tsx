import { storefrontLink, usePublicConfig } from "@web/lib/use-public-config";
import { buttonVariants } from "@web/components/ui/button";
import { Spinner } from "@web/components/ui/spinner";

/** docs/product.md §9.2: only a link to the storefront admin's invite-code manager, opening in a new tab. */
export default function InviteCodesPage() {
  const config = usePublicConfig();
  return (
    <section aria-labelledby="page-title" className="grid gap-4">
      <h1 id="page-title" className="text-2xl font-bold">
        Invite Codes
      </h1>
      {config.data ? (
        <p>
          <a href={storefrontLink(config.data.storefrontUrl, "/admin/invite-codes")} target="_blank" rel="noopener noreferrer" className={buttonVariants()}>
            Manage invite codes in the store admin
            <span className="sr-only"> (opens in a new tab)</span>
          </a>
        </p>
      ) : config.isError ? (
        <p role="alert" className="text-red-700">
          {config.error.message}
        </p>
      ) : (
        <Spinner />
      )}
    </section>
  );
}
