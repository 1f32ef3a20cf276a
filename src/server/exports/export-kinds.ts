import type { ExportKind } from "./export-kind.ts";

/**
 * Every list that can be exported as CSV. An area adds its kind here (defined next to its queries
 * with defineExport); the screens ask for it by name with the filters they show.
 */
export const exportKinds: ReadonlyArray<ExportKind<never, never, never>> = [];
