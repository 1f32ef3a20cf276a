import { useCallback, useRef, useState } from "react";
import { Outlet } from "react-router";
import { cn } from "@web/lib/cn";
import { Button } from "@web/components/ui/button";
import { useCurrentUser, useWriteAccess } from "./current-user";
import { NavList } from "./nav-list";
import { StepUpHost } from "./step-up-host";
import { useOnDemand } from "./on-demand";
import { useNavigationPending } from "./navigation";
import { useGlobalShortcuts } from "./shortcuts";
import { UserMenuFace, userMenuLabel } from "./user-menu-face";

// Loaded on first use, never before the dashboard shows (issue 23: the signed-in start's JS).
const loadNavDrawer = () => import("./nav-drawer");
const loadUserMenu = () => import("./user-menu");
const loadPalette = () => import("./command-palette");

/**
 * Shared layout (docs/product.md §2.1): top bar, user menu, left navigation, and the routed screen.
 * Below 768 px the navigation folds into a menu button that opens it as a drawer (issue 23).
 */
export function Layout() {
  const pending = useNavigationPending();
  const { canWrite } = useWriteAccess();
  const menuButton = useRef<HTMLButtonElement>(null);
  const [drawer, getDrawer] = useOnDemand(loadNavDrawer);
  const [drawerOpen, setDrawerOpen] = useState(false);
  const [palette, getPalette] = useOnDemand(loadPalette);
  const [paletteOpen, setPaletteOpen] = useState(false);
  const focusBeforePalette = useRef<HTMLElement | null>(null);
  const openPalette = useCallback(() => {
    if (!paletteOpen) focusBeforePalette.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    void getPalette().then(() => setPaletteOpen(true));
  }, [getPalette, paletteOpen]);
  useGlobalShortcuts(openPalette);

  return (
    <div className="flex min-h-screen flex-col bg-gray-50 text-gray-900">
      <a href="#main-content" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2 focus:shadow">
        Skip to content
      </a>
      <header className="flex items-center gap-2 border-b border-gray-200 bg-white px-4 py-3 md:px-6">
        <Button
          ref={menuButton}
          variant="ghost"
          size="icon"
          className="shrink-0 md:hidden"
          aria-label="Open navigation"
          aria-haspopup="dialog"
          aria-expanded={drawerOpen}
          onClick={() => void getDrawer().then(() => setDrawerOpen(true))}
        >
          <MenuIcon />
        </Button>
        <div className="min-w-0 flex-1">
          <p className="truncate text-lg font-bold">HKI Global Admin</p>
          <p className="truncate text-xs text-gray-600 sm:text-sm">Platform Management Dashboard</p>
        </div>
        <Button variant="outline" className="shrink-0 px-2.5 sm:px-3" aria-label="Search screens, vendors and products" aria-keyshortcuts="Control+K Meta+K" onClick={openPalette}>
          <SearchIcon />
          <span className="hidden sm:inline">Search</span>
          <kbd className="hidden rounded border border-gray-300 px-1 font-sans text-xs text-gray-600 lg:inline">Ctrl K</kbd>
        </Button>
        <UserMenuSlot />
      </header>
      {/* Lazy screens load before the route changes; a thin bar shows that something is happening. */}
      <div aria-hidden="true" className={cn("h-0.5 bg-blue-600 transition-opacity", pending ? "opacity-100" : "opacity-0")} />
      <div className="flex flex-1">
        <nav aria-label="Main" className="hidden w-56 shrink-0 border-r border-gray-200 bg-white p-3 md:block">
          <NavList />
        </nav>
        <main id="main-content" tabIndex={-1} className="min-w-0 flex-1 p-4 focus:outline-none md:p-6">
          {!canWrite && (
            <p role="note" className="mb-4 rounded-md border border-blue-200 bg-blue-50 px-4 py-2 text-sm text-blue-900">
              Read-only access: you can see every screen, but changes are disabled.
            </p>
          )}
          <Outlet />
        </main>
      </div>
      {drawer ? <drawer.default open={drawerOpen} onOpenChange={setDrawerOpen} returnFocusTo={menuButton} /> : null}
      {palette ? <palette.default open={paletteOpen} onOpenChange={setPaletteOpen} returnFocusTo={focusBeforePalette} /> : null}
      {/* Asks for a second-factor check when a dangerous action needs one, then the action goes ahead. */}
      <StepUpHost />
    </div>
  );
}

/**
 * The user menu's button; the menu itself (Radix's dropdown, its positioning) loads on the first
 * press and opens at once. Hovering or focusing the button starts the download early.
 */
function UserMenuSlot() {
  const user = useCurrentUser();
  const [menu, getMenu] = useOnDemand(loadUserMenu);
  if (menu) return <menu.default defaultOpen />;
  return (
    <Button
      variant="outline"
      className="shrink-0"
      aria-label={userMenuLabel(user)}
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={() => void loadUserMenu()}
      onFocus={() => void loadUserMenu()}
      onClick={() => void getMenu()}
      onKeyDown={(event) => {
        if (event.key === "ArrowDown") {
          event.preventDefault();
          void getMenu();
        }
      }}
    >
      <UserMenuFace user={user} />
    </Button>
  );
}

function MenuIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
      <path d="M4 6h16M4 12h16M4 18h16" />
    </svg>
  );
}

function SearchIcon() {
  return (
    <svg aria-hidden="true" viewBox="0 0 24 24" className="h-4 w-4" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round">
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-3.5-3.5" />
    </svg>
  );
}
