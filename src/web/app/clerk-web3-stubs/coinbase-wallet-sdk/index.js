// Stand-in for @coinbase/wallet-sdk: the names @clerk/clerk-js imports (../README.md). No provider, as
// when the wallet is not there.
export function createCoinbaseWalletSDK() {
  return { getProvider: () => null };
}
