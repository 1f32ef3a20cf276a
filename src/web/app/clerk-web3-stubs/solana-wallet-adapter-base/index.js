// Stand-in for @solana/wallet-adapter-base: the names @clerk/ui imports (../README.md).
export const WalletReadyState = Object.freeze({ Installed: "Installed", NotDetected: "NotDetected", Loadable: "Loadable", Unsupported: "Unsupported" });
