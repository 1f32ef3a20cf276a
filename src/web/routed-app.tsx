import { RouterProvider } from "react-router/dom";
import { createAppRouter } from "./router";

// Created once, at module load, so the router keeps its state while the gates above re-render.
const router = createAppRouter();

/** The signed-in app: every screen behind the router. Loaded as its own chunk (see main.tsx). */
export default function RoutedApp() {
  return <RouterProvider router={router} />;
}
