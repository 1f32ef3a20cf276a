import type { DebugResponse } from "@contract/system-debug";
import { Badge } from "@web/components/ui/badge";
import { Fact, FactsCard, KeyPrefix, YesNo } from "./facts-card";

/** 'Authentication Provider Configuration': the provider in use and whether its secret is configured (docs/product.md §8.1). */
export function AuthProviderCard({ data }: { data: DebugResponse }) {
  const builtIn = data.authProvider === "local";
  return (
    <FactsCard title="Authentication Provider Configuration">
      <Fact label="Provider">{builtIn ? `Built-in (${data.authProviderName})` : data.authProviderName}</Fact>
      <Fact label="Secret Key Configured">{data.authSecretKeyRequired ? <YesNo ok={data.clerkSecretKeyExists} /> : <Badge variant="secondary">Not required (built-in provider)</Badge>}</Fact>
      <Fact label="Key Prefix">
        <KeyPrefix prefix={data.clerkKeyPrefix} />
      </Fact>
      <Fact label="Local User Role">{data.localUserRole ?? "no local user"}</Fact>
      <Fact label="Environment">{data.environment}</Fact>
    </FactsCard>
  );
}
