import { useState } from "react";
import { type ApiKey, createApiKeyEndpoint, type CreatedApiKey, revokeApiKeyEndpoint } from "@contract/integrations";
import { type Column, ListTable } from "@web/components/list";
import { ConfirmDialog } from "@web/components/ui/alert-dialog";
import { Badge } from "@web/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@web/components/ui/card";
import { toast } from "@web/components/ui/toast";
import { WriteButton } from "@web/components/ui/write-button";
import { apiErrorMessage } from "@web/lib/api-client";
import { formatDateTime } from "@web/lib/format";
import { useLoadDelay } from "@web/lib/use-load-delay";
import { CreateApiKeyDialog, KeyCreatedDialog } from "./api-key-dialogs";
import { useApiKeys, useRevokeApiKey } from "./integrations-api";

/** How a key is told apart in the list and in dialogs: its prefix and last four characters. */
export const maskedKey = (k: Pick<ApiKey, "prefix" | "lastFour">) => `${k.prefix}…${k.lastFour}`;

/**
 * The API keys section: make a key (shown once), see every key with what it may do, who made it
 * and when it was last used, and revoke one (refused by the API at once).
 */
export function ApiKeysSection() {
  const ready = useLoadDelay();
  const keys = useApiKeys(ready);
  const revoke = useRevokeApiKey();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  const onRevoke = () => {
    const key = revoking;
    setRevoking(null);
    if (!key) return;
    revoke.mutate(key.id, {
      onSuccess: () => toast({ title: `API key "${key.name}" revoked`, description: "Requests with it are refused from now on.", variant: "success" }),
      onError: (error) => toast({ title: `Failed to revoke the key: ${apiErrorMessage(error)}`, variant: "destructive" }),
    });
  };

  const columns: Array<Column<ApiKey>> = [
    { id: "name", header: "Name", className: "font-medium", cell: (k) => k.name },
    { id: "key", header: "Key", cell: (k) => <code className="font-mono text-xs">{maskedKey(k)}</code> },
    {
      id: "scopes",
      header: "Scopes",
      cell: (k) => (
        <span className="flex flex-wrap gap-1">
          {k.scopes.map((s) => (
            <Badge key={s} variant="secondary">
              {s}
            </Badge>
          ))}
        </span>
      ),
    },
    { id: "created", header: "Created", cell: (k) => `${formatDateTime(k.createdAt)} by ${k.createdBy}` },
    { id: "used", header: "Last used", cell: (k) => (k.lastUsedAt ? formatDateTime(k.lastUsedAt) : "Never") },
    {
      id: "status",
      header: "Status",
      cell: (k) => (k.revokedAt ? <Badge variant="warning">Revoked {formatDateTime(k.revokedAt)}</Badge> : <Badge variant="success">Active</Badge>),
    },
    {
      id: "actions",
      header: "Actions",
      hideHeader: true,
      cell: (k) =>
        k.revokedAt ? null : (
          <div className="flex justify-end">
            <WriteButton endpoint={revokeApiKeyEndpoint} size="sm" variant="destructive" disabled={revoke.isPending} onClick={() => setRevoking(k)} aria-label={`Revoke the API key ${k.name}`}>
              Revoke
            </WriteButton>
          </div>
        ),
    },
  ];

  return (
    <Card>
      <CardHeader className="flex-row flex-wrap items-start justify-between gap-4">
        <div className="grid gap-1.5">
          <CardTitle>API keys</CardTitle>
          <CardDescription>Services send storefront events with a key (docs/integration.md). A key is shown once, when it is created.</CardDescription>
        </div>
        <WriteButton endpoint={createApiKeyEndpoint} onClick={() => setCreating(true)}>
          Create API key
        </WriteButton>
      </CardHeader>
      <CardContent>
        <ListTable
          query={keys}
          rowsOf={(data) => data.items}
          label="API keys"
          loadingLabel="Loading API keys"
          errorTitle="Error loading API keys"
          errorMessage={apiErrorMessage}
          emptyText="No API keys yet: create one for the storefront to send its events."
          framed
          columns={columns}
          rowKey={(k) => k.id}
          rowProps={(k) => ({ "data-testid": `api-key-row-${k.name}` })}
        />
      </CardContent>
      <CreateApiKeyDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(made) => {
          setCreating(false);
          setCreated(made);
        }}
      />
      <KeyCreatedDialog created={created} onClose={() => setCreated(null)} />
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(open) => !open && setRevoking(null)}
        title={revoking ? `Revoke the API key "${revoking.name}"?` : "Revoke the API key?"}
        confirmLabel="Revoke key"
        confirmVariant="destructive"
        onConfirm={onRevoke}
        description={revoking ? `${maskedKey(revoking)} stops working at once on every server: whatever sends with it gets 401 until it has a new key.` : ""}
      />
    </Card>
  );
}
