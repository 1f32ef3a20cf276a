import { useParams } from "react-router";

/** Placeholder route for the vendor detail screen; its own issue replaces this content. */
export default function VendorDetailPage() {
  const { vendorId } = useParams();
  return (
    <section aria-labelledby="page-title" className="grid gap-2">
      <h1 id="page-title" className="text-2xl font-bold">
        Vendor
      </h1>
      <p className="text-gray-600">
        The data for vendor <code>{vendorId}</code> is being built.
      </p>
    </section>
  );
}
