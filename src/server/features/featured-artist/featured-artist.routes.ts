import { endFeaturedArtistEndpoint, getFeaturedArtistEndpoint, publicFeaturedArtistEndpoint, setFeaturedArtistEndpoint } from "../../../contract/featured-artist.ts";
import type { AppDeps } from "../../platform/request/app-env.ts";
import type { EndpointRouter } from "../../platform/request/endpoint-router.ts";
import { FeaturedArtistService } from "./featured-artist.service.ts";

export function featuredArtistRoutes(router: EndpointRouter, deps: AppDeps): void {
  const featured = new FeaturedArtistService(deps);
  router.handle(getFeaturedArtistEndpoint, () => featured.get());
  router.handle(setFeaturedArtistEndpoint, ({ body }, { actor }) => featured.set(actor, body));
  router.handle(endFeaturedArtistEndpoint, (_input, { actor }) => featured.endCurrent(actor));
  router.handle(publicFeaturedArtistEndpoint, (_input) => featured.publicCurrent());
}
