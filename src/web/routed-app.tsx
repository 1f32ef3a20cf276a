import { AppRouter, createAppNavigation } from "./app/navigation";
import { AppRoutes, preloadRoute } from "./router";

// Created once, at module load, so the navigation keeps its state while the gates above re-render;
// the layout and the screen of the URL start loading now, side by side.
const navigation = createAppNavigation();
preloadRoute(window.location.pathname);

/** The signed-in app: every screen behind the router. Loaded as its own chunk (see main.tsx). */
export default function RoutedApp() {
  return (
    <AppRouter navigation={navigation}>
      <AppRoutes />
    </AppRouter>
  );
}
