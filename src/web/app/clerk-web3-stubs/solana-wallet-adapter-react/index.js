// Stand-in for @solana/wallet-adapter-react: the names @clerk/ui imports (../README.md). No wallet is
// ever listed, and connecting fails.
export function ConnectionProvider(props) {
  return props.children;
}

export function WalletProvider(props) {
  return props.children;
}

const unavailable = () => Promise.reject(new Error("Solana wallets are not available in HKI Global Admin"));

export function useWallet() {
  return {
    autoConnect: false,
    wallets: [],
    wallet: null,
    publicKey: null,
    connecting: false,
    connected: false,
    disconnecting: false,
    select() {},
    connect: unavailable,
    disconnect: async () => {},
    sendTransaction: unavailable,
  };
}
