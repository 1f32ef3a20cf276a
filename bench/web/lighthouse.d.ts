/**
 * The part of Lighthouse's API bench/web/run.ts uses. Lighthouse is installed in bench/ only when the
 * benchmark runs (bench/install-tools.ts), so the project's typecheck cannot rely on its own types.
 */
declare module "lighthouse" {
  interface AuditRef {
    id: string;
    weight: number;
  }
  interface Category {
    score: number | null;
    auditRefs: AuditRef[];
  }
  interface Audit {
    id: string;
    score: number | null;
    numericValue?: number;
    details?: unknown;
  }
  interface Result {
    runtimeError?: { code: string; message: string };
    audits: Record<string, Audit>;
    categories: Record<string, Category | undefined>;
  }
  interface Flags {
    port?: number;
    output?: "json" | "html" | "csv";
    logLevel?: "silent" | "error" | "warn" | "info" | "verbose";
    onlyCategories?: string[];
    onlyAudits?: string[];
    disableStorageReset?: boolean;
  }
  export default function lighthouse(url: string, flags?: Flags, config?: unknown): Promise<{ lhr: Result } | undefined>;
}

declare module "lighthouse/core/config/desktop-config.js" {
  const config: unknown;
  export default config;
}
