import type { VendorDetail } from "@contract/vendors";
import { Card, CardContent } from "@web/components/ui/card";

function ColorSwatch({ label, color }: { label: string; color: string }) {
  // Only a plain hex colour reaches the style attribute.
  const safe = /^#[0-9a-f]{3,8}$/i.test(color) ? color : "transparent";
  return (
    <div className="flex items-center gap-2">
      <span aria-hidden="true" className="inline-block h-6 w-6 rounded border border-gray-300" style={{ backgroundColor: safe }} />
      <span>
        {label}: <code>{color}</code>
      </span>
    </div>
  );
}

/** The store's look (docs/product.md §4.4, Customization): custom CSS and HTML arrive sanitised and the HTML previews in a sandbox. */
export function CustomizationTab({ vendor }: { vendor: VendorDetail }) {
  const c = vendor.customization;
  return (
    <Card>
      <CardContent className="grid gap-4 pt-6">
        <p>
          Theme: <strong>{c.theme}</strong>
        </p>
        <ColorSwatch label="Primary color" color={c.primaryColor} />
        <ColorSwatch label="Secondary color" color={c.secondaryColor} />
        <div>
          <h3 className="font-semibold">About</h3>
          <p className="whitespace-pre-wrap text-gray-700">{c.about || "—"}</p>
        </div>
        <div>
          <h3 className="font-semibold">Custom CSS</h3>
          <p className="text-xs text-gray-500">Sanitized: scripts, expressions, imports and remote URLs removed.</p>
          <pre className="mt-1 max-h-64 overflow-auto rounded bg-gray-100 p-3 text-xs">{c.customCSS || "(none)"}</pre>
        </div>
        {c.customHTML !== null && (
          <div>
            <h3 className="font-semibold">Custom HTML</h3>
            <p className="text-xs text-gray-500">Sanitized against XSS; shown in a sandboxed frame where nothing runs.</p>
            <pre className="mt-1 max-h-40 overflow-auto rounded bg-gray-100 p-3 text-xs">{c.customHTML}</pre>
            <iframe title="Custom HTML preview" sandbox="" srcDoc={c.customHTML} className="mt-2 h-48 w-full rounded border border-gray-200 bg-white" />
          </div>
        )}
      </CardContent>
    </Card>
  );
}
