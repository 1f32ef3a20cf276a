import type { DebugResponse } from "@contract/system-debug";
import { Fact, FactsCard, YesNo } from "./facts-card";

/** 'User Information': who is asking (docs/product.md §8.1). */
export function UserCard({ data }: { data: DebugResponse }) {
  return (
    <FactsCard title="User Information">
      <Fact label="User ID" code>
        {data.userId}
      </Fact>
      <Fact label="Email">{data.email}</Fact>
      <Fact label="Admin Status">
        <YesNo ok={data.isAdmin} />
      </Fact>
      <Fact label="JWT Role">{data.jwtRole ?? "none"}</Fact>
    </FactsCard>
  );
}
