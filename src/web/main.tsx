import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { QueryClientProvider } from "@tanstack/react-query";
import { RouterProvider } from "react-router/dom";
import { queryClient } from "./lib/query-client";
import { BetaGate } from "./app/beta-gate";
import { AuthGate } from "./app/auth-gate";
import { ToasterHost } from "./components/ui/toaster-host";
import { createAppRouter } from "./router";
import "./styles.css";

// Created once, outside React, so the router keeps its state while the gates re-render.
const router = createAppRouter();

const container = document.getElementById("root");
if (!container) throw new Error("index.html has no #root element");

createRoot(container).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <BetaGate>
        <AuthGate>
          <RouterProvider router={router} />
        </AuthGate>
      </BetaGate>
      <ToasterHost />
    </QueryClientProvider>
  </StrictMode>,
);
