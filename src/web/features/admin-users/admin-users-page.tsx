import { useSearchParams } from "react-router";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@web/components/ui/tabs";
import { ActivityTab } from "./activity-tab";
import { InvitationsTab } from "./invitations-tab";
import { UsersTab } from "./users-tab";

const TABS = ["users", "invitations", "activity"] as const;
type Tab = (typeof TABS)[number];
const TAB_LABELS: Record<Tab, string> = { users: "Users", invitations: "Invitations", activity: "Activity" };

/**
 * Admin Users (docs/product.md §14.5): who has access and how (Users), the invitations that grant it
 * (Invitations), and the audit log of every admin action (Activity). The tab and each tab's filters
 * live in the URL, so reload, back and links from other screens keep them.
 */
export default function AdminUsersPage() {
  const [searchParams, setSearchParams] = useSearchParams();
  const tabParam = searchParams.get("tab");
  const tab: Tab = TABS.includes(tabParam as Tab) ? (tabParam as Tab) : "users";

  return (
    <section aria-labelledby="page-title" className="grid gap-6">
      <div>
        <h1 id="page-title" className="text-2xl font-bold">
          Admin Users
        </h1>
        <p className="text-gray-600">Who can open the panel, their invitations, and everything admins did.</p>
      </div>
      <Tabs
        value={tab}
        onValueChange={(value) =>
          // A new tab starts with its own filters only.
          setSearchParams(new URLSearchParams(value === "users" ? {} : { tab: value }), { replace: true })
        }
      >
        <TabsList>
          {TABS.map((t) => (
            <TabsTrigger key={t} value={t}>
              {TAB_LABELS[t]}
            </TabsTrigger>
          ))}
        </TabsList>
        <TabsContent value="users">{tab === "users" && <UsersTab />}</TabsContent>
        <TabsContent value="invitations">{tab === "invitations" && <InvitationsTab />}</TabsContent>
        <TabsContent value="activity">{tab === "activity" && <ActivityTab />}</TabsContent>
      </Tabs>
    </section>
  );
}
