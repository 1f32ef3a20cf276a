import type { ReactNode } from "react";

/** A screen's title (the page's one h1, `#page-title` for its section's label), subtitle and actions. */
export function PageHeader({ title, description, children }: { title: ReactNode; description?: ReactNode; children?: ReactNode }) {
  return (
    <div className="flex flex-wrap items-center justify-between gap-2">
      <div>
        <h1 id="page-title" className="text-2xl font-bold">
          {title}
        </h1>
        {description && <p className="text-gray-600">{description}</p>}
      </div>
      {children && <div className="flex flex-wrap gap-2">{children}</div>}
    </div>
  );
}
