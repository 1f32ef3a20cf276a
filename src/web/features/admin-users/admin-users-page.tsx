import { PageHeader } from "@web/components/ui/page-header";
import { UrlTabs } from "@web/components/ui/url-tabs";
import { AuditLogTab } from "./audit-log-tab";
import { InvitationsTab } from "./invitations-tab";
import { UsersTab } from "./users-tab";

/**
 * Admin Users (docs/product.md §14.5): who has access and how (Users), the invitations that grant it
 * (Invitations), and the audit log of every admin action (Activity). The tab and each tab's filters
 * live in the URL, so reload, back and links from other screens keep them; a new tab starts with
 * its own filters only.
 */
export default function AdminUsersPage() {
  return (
    <section aria-labelledby="page-title" className="grid gap-6">
      <PageHeader title="Admin Users" description="Who can open the panel, their invitations, and everything admins did." />
      <UrlTabs
        fallback="users"
        ownParams
        tabs={[
          { value: "users", label: "Users", panel: <UsersTab /> },
          { value: "invitations", label: "Invitations", panel: <InvitationsTab /> },
          { value: "activity", label: "Activity", panel: <AuditLogTab /> },
        ]}
      />
    </section>
  );
}
