/**
 * Which applications are terminals, by the identity each OS gives an application: X11's WM_CLASS, macOS's
 * bundle identifier, Windows' process name. Enter typed into one runs a command line, so the safety policy
 * treats it as risky. Matched without regard to case. An AT-SPI role "terminal" counts too (atspi-roles.ts),
 * so a terminal missing here is still recognized where it exposes its accessible tree (VTE-based ones do).
 */

/** WM_CLASS instance or class names (`xprop WM_CLASS`) of terminal emulators on X11. */
export const X11_TERMINAL_CLASSES: readonly string[] = [
  'xterm',
  'uxterm',
  'gnome-terminal',
  'gnome-terminal-server',
  'org.gnome.terminal',
  'org.gnome.console',
  'kgx',
  'konsole',
  'org.kde.konsole',
  'xfce4-terminal',
  'mate-terminal',
  'lxterminal',
  'qterminal',
  'terminator',
  'tilix',
  'com.gexperts.tilix',
  'guake',
  'tilda',
  'yakuake',
  'alacritty',
  'kitty',
  'foot',
  'wezterm',
  'org.wezfurlong.wezterm',
  'urxvt',
  'rxvt',
  'st',
  'st-256color',
  'sakura',
  'terminology',
  'cool-retro-term',
  'hyper',
  'tabby',
  'warp',
  'dev.warp.warp',
  'ghostty',
  'com.mitchellh.ghostty',
  'blackbox',
  'com.raggesilver.blackbox',
];

/** Bundle identifiers of terminal applications on macOS. */
export const MACOS_TERMINAL_BUNDLES: readonly string[] = [
  'com.apple.Terminal',
  'com.googlecode.iterm2',
  'io.alacritty',
  'net.kovidgoyal.kitty',
  'com.github.wez.wezterm',
  'dev.warp.Warp-Stable',
  'co.zeit.hyper',
  'com.mitchellh.ghostty',
  'org.tabby',
];

/** Process names (without .exe) of terminals and shells that own a console window on Windows. */
export const WINDOWS_TERMINAL_PROCESSES: readonly string[] = [
  'WindowsTerminal',
  'OpenConsole',
  'conhost',
  'cmd',
  'powershell',
  'pwsh',
  'wsl',
  'bash',
  'mintty',
  'alacritty',
  'wezterm-gui',
  'Hyper',
  'Tabby',
];

export function isListedTerminal(list: readonly string[], name: string): boolean {
  const lowered = name.trim().toLowerCase();
  return lowered !== '' && list.some((terminal) => terminal.toLowerCase() === lowered);
}
