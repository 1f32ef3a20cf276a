import { Command } from "cmdk";
import { useQuery } from "@tanstack/react-query";
import { useState, type ComponentProps, type ReactNode, type RefObject } from "react";
import { useNavigate } from "react-router";
import { MIN_PRODUCT_SEARCH_LENGTH, listProductsEndpoint } from "@contract/products";
import { listAdminVendorsEndpoint } from "@contract/vendors";
import { callApi } from "@web/lib/api-client";
import { useDebouncedValue } from "@web/lib/use-debounced-value";
import { queryKeys } from "@web/lib/query-keys";
import { useStaffRole } from "./current-user";
import { navItemsFor } from "./nav-items";
import { THEME_CHOICES, setThemeChoice } from "./theme";

/** How many vendors and products the palette lists for a search. */
const RESULTS = 6;

/**
 * The command palette (issue 23), opened with Ctrl+K or Cmd+K or the top bar's Search button: go to
 * any screen, or to a vendor or product found by name on the server (the lists' own searches), or
 * switch the theme. cmdk gives the combobox and arrow keys; its Radix dialog traps focus, closes on
 * Escape and returns focus where it was. Loaded on first use (layout.tsx).
 */
export default function CommandPalette({
  open,
  onOpenChange,
  returnFocusTo,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** What had focus when it opened: focused again when it closes (Radix would focus a trigger it has not got). */
  returnFocusTo: RefObject<HTMLElement | null>;
}) {
  const navigate = useNavigate();
  const role = useStaffRole();
  const [input, setInput] = useState("");
  const search = useDebouncedValue(input.trim(), 200);

  const vendors = useQuery({
    queryKey: queryKeys.vendors.palette(search),
    queryFn: ({ signal }) => callApi(listAdminVendorsEndpoint, { query: { search, limit: RESULTS, page: 1 } }, { signal }),
    enabled: open && search.length > 0,
    staleTime: 30_000,
  });
  const products = useQuery({
    queryKey: queryKeys.products.palette(search),
    queryFn: ({ signal }) => callApi(listProductsEndpoint, { query: { search, limit: RESULTS, sort: "newest" } }, { signal }),
    enabled: open && [...search].length >= MIN_PRODUCT_SEARCH_LENGTH,
    staleTime: 30_000,
  });

  function close() {
    onOpenChange(false);
    const back = returnFocusTo.current;
    setTimeout(() => {
      if (back?.isConnected) back.focus();
    }, 0);
  }

  function run(action: () => void) {
    close();
    setInput("");
    action();
  }

  // The palette filters itself (cmdk's filter off): screens and themes by the text typed, vendors
  // and products as the server found them by name, e-mail or slug.
  const typed = input.trim().toLowerCase();
  const matches = (label: string) => label.toLowerCase().includes(typed);
  const screens = navItemsFor(role).filter((item) => matches(item.label));
  const themes = THEME_CHOICES.filter((choice) => matches(`Theme: ${choice.label}`));
  const searching = search.length > 0 && (vendors.isFetching || products.isFetching);
  return (
    <Command.Dialog
      open={open}
      onOpenChange={(next) => (next ? onOpenChange(true) : close())}
      label="Command palette"
      shouldFilter={false}
      loop
      overlayClassName="fixed inset-0 z-50 bg-black/50"
      contentClassName="fixed left-1/2 top-[10vh] z-50 w-[calc(100vw-2rem)] max-w-xl -translate-x-1/2 overflow-hidden rounded-lg border border-gray-200 bg-white text-gray-900 shadow-xl focus:outline-none"
    >
      <Command.Input
        value={input}
        onValueChange={setInput}
        placeholder="Go to a screen, vendor or product…"
        className="h-12 w-full border-b border-gray-200 bg-transparent px-4 text-sm outline-none placeholder:text-gray-500"
      />
      <Command.List className="max-h-[60vh] overflow-y-auto p-2">
        <Command.Empty className="px-3 py-6 text-center text-sm text-gray-600">{searching ? "Searching…" : "No results"}</Command.Empty>
        {screens.length > 0 ? (
          <Group heading="Go to">
            {screens.map((item) => (
              <Item key={item.path} value={item.label} onSelect={() => run(() => void navigate(item.path))}>
                {item.label}
              </Item>
            ))}
          </Group>
        ) : null}
        {vendors.data && vendors.data.vendors.length > 0 ? (
          <Group heading="Vendors">
            {vendors.data.vendors.map((v) => (
              <Item key={v.id} value={`vendor ${v.id}`} onSelect={() => run(() => void navigate(`/vendors/${v.id}`))}>
                {v.name} <span className="text-xs text-gray-600">{v.email}</span>
              </Item>
            ))}
          </Group>
        ) : null}
        {products.data && products.data.products.length > 0 ? (
          <Group heading="Products">
            {products.data.products.map((p) => (
              <Item key={p.id} value={`product ${p.id}`} onSelect={() => run(() => void navigate(`/products?product=${encodeURIComponent(p.id)}`))}>
                {p.name} <span className="text-xs text-gray-600">{p.vendorName}</span>
              </Item>
            ))}
          </Group>
        ) : null}
        {themes.length > 0 ? (
          <Group heading="Theme">
            {themes.map((choice) => (
              <Item key={choice.value} value={`theme ${choice.label}`} onSelect={() => run(() => setThemeChoice(choice.value))}>
                {`Theme: ${choice.label}`}
              </Item>
            ))}
          </Group>
        ) : null}
      </Command.List>
    </Command.Dialog>
  );
}

function Group({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <Command.Group
      heading={heading}
      className="py-1 [&_[cmdk-group-heading]]:px-3 [&_[cmdk-group-heading]]:py-1.5 [&_[cmdk-group-heading]]:text-xs [&_[cmdk-group-heading]]:font-medium [&_[cmdk-group-heading]]:text-gray-600"
    >
      {children}
    </Command.Group>
  );
}

function Item({ children, ...props }: Omit<ComponentProps<typeof Command.Item>, "className">) {
  return (
    <Command.Item className="flex cursor-default select-none items-baseline gap-2 rounded-md px-3 py-2 text-sm data-[selected=true]:bg-gray-100" {...props}>
      {children}
    </Command.Item>
  );
}
