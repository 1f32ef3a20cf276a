import { NavLink, Outlet, useNavigate, useNavigation } from "react-router";
import { cn } from "@web/lib/cn";
import { Button } from "@web/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@web/components/ui/dropdown-menu";
import { useSignOut } from "./auth";
import { useCurrentUser, useWriteAccess } from "./current-user";
import { NAV_ITEMS } from "./nav-items";

/** Shared layout (docs/product.md §2.1): top bar, user menu, left navigation, and the routed screen. */
export function Layout() {
  const navigation = useNavigation();
  const { canWrite } = useWriteAccess();
  return (
    <div className="flex min-h-screen flex-col bg-gray-50 text-gray-900">
      <a
        href="#main-content"
        className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow"
      >
        Skip to content
      </a>
      <header className="flex items-center justify-between border-b border-gray-200 bg-white px-6 py-3">
        <div>
          <p className="text-lg font-bold">HKI Global Admin</p>
          <p className="text-sm text-gray-600">Platform Management Dashboard</p>
        </div>
        <UserMenu />
      </header>
      {/* Lazy screens load before the route changes; a thin bar shows that something is happening. */}
      <div aria-hidden="true" className={cn("h-0.5 bg-blue-600 transition-opacity", navigation.state === "idle" ? "opacity-0" : "opacity-100")} />
      <div className="flex flex-1">
        <nav aria-label="Main" className="w-56 shrink-0 border-r border-gray-200 bg-white p-3">
          <ul className="grid gap-1">
            {NAV_ITEMS.map((item) => (
              <li key={item.path}>
                <NavLink
                  to={item.path}
                  // "/" would otherwise be active on every page.
                  end={item.path === "/"}
                  className={({ isActive }) =>
                    cn(
                      "block rounded-md px-3 py-2 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600",
                      isActive ? "bg-gray-900 text-white" : "text-gray-700 hover:bg-gray-100",
                    )
                  }
                >
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main-content" tabIndex={-1} className="min-w-0 flex-1 p-6 focus:outline-none">
          {!canWrite && (
            <p role="note" className="mb-4 rounded-md border border-blue-200 bg-blue-50 px-4 py-2 text-sm text-blue-900">
              Read-only access: you can see every screen, but changes are disabled.
            </p>
          )}
          <Outlet />
        </main>
      </div>
    </div>
  );
}

function UserMenu() {
  const user = useCurrentUser();
  const signOut = useSignOut();
  const navigate = useNavigate();

  async function onSignOut() {
    // Go to '/' first so that signing in again starts on the dashboard (docs/product.md: sign-out returns to '/').
    await navigate("/");
    await signOut();
  }

  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" aria-label={`User menu for ${user.email}`}>
          <span aria-hidden="true" className="flex h-6 w-6 items-center justify-center rounded-full bg-gray-900 text-xs text-white">
            {(user.name ?? user.email).charAt(0).toUpperCase()}
          </span>
          <span className="hidden sm:inline">{user.email}</span>
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent>
        <DropdownMenuLabel>
          {user.name ? <span className="block">{user.name}</span> : null}
          <span className="block text-xs font-normal text-gray-600">{user.email}</span>
        </DropdownMenuLabel>
        <DropdownMenuSeparator />
        <DropdownMenuItem onSelect={() => void onSignOut()}>Sign out</DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
