import { useState } from "react";
import { useNavigate } from "react-router";
import { Button } from "@web/components/ui/button";
import {
  DropdownMenu,
  DropdownMenuContent,
  DropdownMenuItem,
  DropdownMenuLabel,
  DropdownMenuRadioGroup,
  DropdownMenuRadioItem,
  DropdownMenuSeparator,
  DropdownMenuTrigger,
} from "@web/components/ui/dropdown-menu";
import { useSignOut } from "./auth";
import { useCurrentUser } from "./current-user";
import { THEME_CHOICES, setThemeChoice, useThemeChoice, type ThemeChoice } from "./theme";
import { usePublicConfig } from "@web/lib/use-public-config";
import TwoStepDialog from "./two-step-dialog";
import PasskeysDialog from "./passkeys-dialog";
import { UserMenuFace, userMenuLabel } from "./user-menu-face";

/**
 * The user menu (docs/product.md §2.1): who is signed in, the theme (light, dark or the system's,
 * issue 23), two-step sign-in and passkeys (built-in accounts only: under Clerk, second factors are Clerk's) and sign-out. Loaded on the first press of its button (layout.tsx), then opened.
 */
export default function UserMenu({ defaultOpen }: { defaultOpen: boolean }) {
  const user = useCurrentUser();
  const signOut = useSignOut();
  const navigate = useNavigate();
  const theme = useThemeChoice();
  const config = usePublicConfig();
  const [twoStepOpen, setTwoStepOpen] = useState(false);
  const [passkeysOpen, setPasskeysOpen] = useState(false);

  async function onSignOut() {
    // Go to '/' first so that signing in again starts on the dashboard (docs/product.md: sign-out returns to '/').
    await navigate("/");
    await signOut();
  }

  return (
    <>
      <DropdownMenu defaultOpen={defaultOpen}>
        <DropdownMenuTrigger asChild>
          <Button variant="outline" aria-label={userMenuLabel(user)}>
            <UserMenuFace user={user} />
          </Button>
        </DropdownMenuTrigger>
        <DropdownMenuContent>
          <DropdownMenuLabel>
            {user.name ? <span className="block">{user.name}</span> : null}
            <span className="block text-xs font-normal text-gray-600">{user.email}</span>
          </DropdownMenuLabel>
          <DropdownMenuSeparator />
          <DropdownMenuLabel className="text-xs font-medium text-gray-600">Theme</DropdownMenuLabel>
          <DropdownMenuRadioGroup value={theme} onValueChange={(value) => setThemeChoice(value as ThemeChoice)}>
            {THEME_CHOICES.map((choice) => (
              <DropdownMenuRadioItem key={choice.value} value={choice.value}>
                {choice.label}
              </DropdownMenuRadioItem>
            ))}
          </DropdownMenuRadioGroup>
          <DropdownMenuSeparator />
          {config.data && config.data.authProvider !== "clerk" ? <DropdownMenuItem onSelect={() => setTwoStepOpen(true)}>Two-step sign-in</DropdownMenuItem> : null}
          {config.data && config.data.authProvider !== "clerk" ? <DropdownMenuItem onSelect={() => setPasskeysOpen(true)}>Passkeys</DropdownMenuItem> : null}
          <DropdownMenuItem onSelect={() => void onSignOut()}>Sign out</DropdownMenuItem>
        </DropdownMenuContent>
      </DropdownMenu>
      <TwoStepDialog open={twoStepOpen} onClose={() => setTwoStepOpen(false)} />
      <PasskeysDialog open={passkeysOpen} onClose={() => setPasskeysOpen(false)} />
    </>
  );
}
