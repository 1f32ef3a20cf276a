import { NavLink } from "react-router";
import { cn } from "@web/lib/cn";
import { useStaffRole } from "./current-user";
import { navItemsFor } from "./nav-items";

/** The navigation's links (docs/product.md §2.2): the sidebar from 768 px up, the drawer below. */
export function NavList({ onNavigate }: { onNavigate?: () => void }) {
  const role = useStaffRole();
  return (
    <ul className="grid gap-1">
      {navItemsFor(role).map((item) => (
        <li key={item.path}>
          <NavLink
            to={item.path}
            // "/" would otherwise be active on every page.
            end={item.path === "/"}
            onClick={onNavigate}
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
  );
}
