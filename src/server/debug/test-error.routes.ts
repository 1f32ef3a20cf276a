import { Hono } from "hono";
import type { ApiError } from "../../contract/common.ts";
import type { AppDeps, AppEnv } from "../app-env.ts";

/** Status of the test answer: an error status that the app's logging middleware does not log itself. */
export const TEST_ERROR_STATUS = 418;

/**
 * POST /api/debug/test-error (admin-only by the /api/debug prefix guard): the hidden /test-error
 * page's "Test Error Logging". It writes ONE 'info' row to error_logs on purpose (the level rule
 * in error-recorder.ts) and answers with an error payload, so the page can show both sides of the
 * pipe. The status is 418, not 500: a 5xx would also be logged by the middleware in app.ts as an
 * 'error' row, making one click look like a real server failure on the Error Logs screen.
 */
export function testErrorRoutes(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.post("/debug/test-error", async (c) => {
    const url = new URL(c.req.url);
    const logged = await deps.errors.record({
      level: "info",
      message: "Test error logged from the admin panel",
      endpoint: url.pathname,
      method: c.req.method,
      statusCode: TEST_ERROR_STATUS,
      userEmail: c.get("user")?.email ?? null,
      ipAddress: c.get("clientIp"),
      userAgent: c.req.header("user-agent") ?? null,
      context: { source: "test-error page" },
    });
    const body: ApiError = {
      error: {
        code: "test_error",
        // The recorder caps repeats per minute; say so rather than claim a row that was not written.
        message: logged ? "Test error logged" : "Test error not logged: the error-log rate cap was reached",
      },
    };
    return c.json(body, TEST_ERROR_STATUS);
  });
  return app;
}
