// Stand-in for @base-org/account: the names @clerk/clerk-js imports (../README.md). No provider, as
// when the wallet is not there.
export function createBaseAccountSDK() {
  return { getProvider: () => null };
}
