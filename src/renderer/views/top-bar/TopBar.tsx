import { Button, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components';
import { notesToFinish } from '../../store/history-slice';
import { useAppStore } from '../../store/use-app-store';
import { DemoBadge } from './DemoBadge';
import { SignInStatus } from '../sign-in/SignInPanel';
import './top-bar.css';

/**
 * The compact top bar of the workspace (issue 17): the app's name, a small badge while the demo
 * is the service, who is signed in and until when, and a menu with Settings and Sign out. The
 * menu is React Aria's: its keyboard, focus and dismissal handling are theirs, not ours.
 */
export function TopBar(props: { firstRunComplete: boolean; onSettings(): void }) {
  const signedIn = useAppStore((s) => s.auth?.signedIn === true);
  const signOut = useAppStore((s) => s.signOut);
  const toFinish = useAppStore(notesToFinish);
  return (
    <header className="app-header">
      <h1>Ambient Scribe</h1>
      <DemoBadge />
      {props.firstRunComplete && (
        <div className="account">
          {/* The end of a clinic day shows what is left for the EHR (issue 29). */}
          {toFinish > 0 && (
            <span className="to-finish" data-testid="notes-to-finish">
              {toFinish === 1 ? '1 note to finish' : `${toFinish} notes to finish`}
            </span>
          )}
          <SignInStatus />
          <MenuTrigger>
            <Button className="menu-button" aria-label="Menu">
              Menu <span aria-hidden="true">▾</span>
            </Button>
            <Popover placement="bottom end" className="menu-popover">
              <Menu
                className="menu"
                onAction={(key) => {
                  if (key === 'settings') props.onSettings();
                  if (key === 'sign-out') void signOut();
                }}
              >
                <MenuItem id="settings" className="menu-item">
                  Settings
                </MenuItem>
                {signedIn && (
                  <MenuItem id="sign-out" className="menu-item">
                    Sign out
                  </MenuItem>
                )}
              </Menu>
            </Popover>
          </MenuTrigger>
        </div>
      )}
    </header>
  );
}
