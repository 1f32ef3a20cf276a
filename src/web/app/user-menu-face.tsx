import type { PublicUser } from "@contract/auth";

export function userMenuLabel(user: PublicUser): string {
  return `User menu for ${user.email}`;
}

/** The user menu button's content: an initial, and the e-mail from 640 px up. */
export function UserMenuFace({ user }: { user: PublicUser }) {
  return (
    <>
      <span aria-hidden="true" className="flex h-6 w-6 items-center justify-center rounded-full bg-gray-900 text-xs text-white">
        {(user.name ?? user.email).charAt(0).toUpperCase()}
      </span>
      <span className="hidden sm:inline">{user.email}</span>
    </>
  );
}
