import type { DebugResponse } from "@contract/system-debug";
import { Badge } from "@web/components/ui/badge";
import { formatDateTime } from "@web/lib/format";
import { Fact, FactsCard, KeyPrefix, YesNo } from "./facts-card";

/** 'Payment Provider Integration (Stripe)': the key and the live check (docs/product.md §8.1). */
export function PaymentProviderCard({ data }: { data: DebugResponse }) {
  return (
    <FactsCard title="Payment Provider Integration (Stripe)">
      <Fact label="Secret Key Configured">
        <YesNo ok={data.stripeSecretKeyExists} />
      </Fact>
      <Fact label="Key Prefix">
        <KeyPrefix prefix={data.stripeKeyPrefix} />
      </Fact>
      <Fact label="API Connection">
        <Badge variant={data.stripeWorks ? "success" : "destructive"}>{data.stripeWorks ? "Working" : "Not working"}</Badge>
      </Fact>
      <Fact label="Error Message">{data.stripeError ?? "None"}</Fact>
      <Fact label="Checked At">{formatDateTime(data.stripeCheckedAt)}</Fact>
    </FactsCard>
  );
}
