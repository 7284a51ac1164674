; Included by electron-builder's NSIS installer (electron-builder.yml, nsis.include).
;
; Visit links from the EHR: ambient-scribe://visit?... opens this app (docs/deployment.md).
; electron-builder's `protocols` registers the scheme on macOS (Info.plist) and Linux (the desktop
; file), not on Windows, so the installer writes the keys itself. SHELL_CONTEXT is HKLM for this
; per-machine installer: every user of the laptop gets the links, with no first launch needed.
; "--" ends Chromium's switches, so nothing in a link can be read as one (Electron's
; protocol-handler advisory, CVE-2018-1000006). The app reads no switch after it, and takes the link
; only as the one argument after it (src/main/core/startup/launch-args.ts): a launcher that passes a
; quote unencoded splits the link in two, and then no link is read at all.

!macro customInstall
  WriteRegStr SHELL_CONTEXT "Software\Classes\ambient-scribe" "" "URL:Ambient Scribe visit"
  WriteRegStr SHELL_CONTEXT "Software\Classes\ambient-scribe" "URL Protocol" ""
  WriteRegStr SHELL_CONTEXT "Software\Classes\ambient-scribe\DefaultIcon" "" '"$appExe",0'
  WriteRegStr SHELL_CONTEXT "Software\Classes\ambient-scribe\shell\open\command" "" '"$appExe" -- "%1"'
!macroend

!macro customUnInstall
  DeleteRegKey SHELL_CONTEXT "Software\Classes\ambient-scribe"
!macroend
