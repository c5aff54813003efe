import type { MenuItemConstructorOptions, MessageBoxOptions } from 'electron';

/**
 * The application menu as data: a pure function of the platform and the build, so it is tested
 * without Electron. Standard roles do the work; the only custom action is About, and no item
 * opens a link: the app never hands a URL to the system browser.
 */
export interface MenuContext {
  isMac: boolean;
  /** Packaged builds have no developer tools in the menu. */
  isPackaged: boolean;
  appName: string;
  version: string;
}

export interface MenuActions {
  showAbout(): void;
}

/** Re-exported so tests read the template without importing electron. */
export type MenuItem = MenuItemConstructorOptions;

const separator: MenuItemConstructorOptions = { type: 'separator' };

function appMenu(context: MenuContext, actions: MenuActions): MenuItemConstructorOptions {
  return {
    label: context.appName,
    submenu: [
      { label: `About ${context.appName}`, click: () => actions.showAbout() },
      separator,
      { role: 'hide' },
      { role: 'hideOthers' },
      { role: 'unhide' },
      separator,
      { role: 'quit', accelerator: 'CmdOrCtrl+Q' },
    ],
  };
}

function fileMenu(context: MenuContext): MenuItemConstructorOptions {
  // On macOS Quit lives in the app menu; File keeps Close Window, as Mac apps do.
  const submenu: MenuItemConstructorOptions[] = context.isMac ? [{ role: 'close' }] : [{ role: 'quit', accelerator: 'CmdOrCtrl+Q' }];
  return { label: 'File', submenu };
}

const editMenu: MenuItemConstructorOptions = {
  label: 'Edit',
  submenu: [{ role: 'undo' }, { role: 'redo' }, separator, { role: 'cut' }, { role: 'copy' }, { role: 'paste' }, { role: 'selectAll' }],
};

function viewMenu(context: MenuContext): MenuItemConstructorOptions {
  const devTools: MenuItemConstructorOptions[] = context.isPackaged ? [] : [{ role: 'toggleDevTools' }];
  return {
    label: 'View',
    submenu: [
      { role: 'reload' },
      { role: 'forceReload' },
      ...devTools,
      separator,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      separator,
      { role: 'togglefullscreen' },
    ],
  };
}

function windowMenu(context: MenuContext): MenuItemConstructorOptions {
  const submenu: MenuItemConstructorOptions[] = context.isMac
    ? [{ role: 'minimize' }, { role: 'zoom' }, separator, { role: 'front' }]
    : [{ role: 'minimize' }, { role: 'close' }];
  return { label: 'Window', submenu };
}

function helpMenu(context: MenuContext, actions: MenuActions): MenuItemConstructorOptions {
  return { label: 'Help', submenu: [{ label: `About ${context.appName}`, click: () => actions.showAbout() }] };
}

export function buildAppMenu(context: MenuContext, actions: MenuActions): MenuItemConstructorOptions[] {
  const menus = [fileMenu(context), editMenu, viewMenu(context), windowMenu(context), helpMenu(context, actions)];
  return context.isMac ? [appMenu(context, actions), ...menus] : menus;
}

/** What About says: the name and version, and where this installation keeps its data. */
export function aboutDialogOptions(context: Pick<MenuContext, 'appName' | 'version'>, dataDir: string): MessageBoxOptions {
  return {
    type: 'info',
    title: `About ${context.appName}`,
    message: `${context.appName} ${context.version}`,
    detail: `Data folder: ${dataDir}`,
    buttons: ['OK'],
  };
}
