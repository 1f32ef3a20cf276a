// Stand-in for @solana/wallet-standard: the names @clerk/ui imports (../README.md).
export const MAINNET_ENDPOINT = "https://api.mainnet-beta.solana.com";
