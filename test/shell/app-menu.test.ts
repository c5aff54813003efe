import { describe, expect, it, vi } from 'vitest';
import { aboutDialogOptions, buildAppMenu, type MenuContext, type MenuItem } from '../../main/shell/app-menu';

const linux: MenuContext = { isMac: false, isPackaged: true, appName: 'Provisioning Workstation', version: '0.1.0' };
const mac: MenuContext = { ...linux, isMac: true };

const items = (menu: MenuItem | undefined): MenuItem[] =>
  (menu?.submenu as MenuItem[] | undefined)?.filter((item) => item.type !== 'separator') ?? [];
const roles = (menu: MenuItem | undefined): (string | undefined)[] => items(menu).map((item) => item.role);
const menuNamed = (template: MenuItem[], label: string) => template.find((menu) => menu.label === label);

describe('the application menu', () => {
  it('has File, Edit, View, Window and Help, and on macOS the app menu first', () => {
    const noop = { showAbout: () => undefined };
    expect(buildAppMenu(linux, noop).map((menu) => menu.label)).toEqual(['File', 'Edit', 'View', 'Window', 'Help']);
    expect(buildAppMenu(mac, noop).map((menu) => menu.label)).toEqual([
      'Provisioning Workstation',
      'File',
      'Edit',
      'View',
      'Window',
      'Help',
    ]);
  });

  it('quits with CmdOrCtrl+Q from File, or from the app menu on macOS', () => {
    const noop = { showAbout: () => undefined };
    const file = menuNamed(buildAppMenu(linux, noop), 'File');
    expect(items(file)).toEqual([{ role: 'quit', accelerator: 'CmdOrCtrl+Q' }]);
    const macTemplate = buildAppMenu(mac, noop);
    expect(items(macTemplate[0])).toContainEqual({ role: 'quit', accelerator: 'CmdOrCtrl+Q' });
    expect(roles(menuNamed(macTemplate, 'File'))).toEqual(['close']);
  });

  it('edits with the standard roles', () => {
    for (const context of [linux, mac]) {
      expect(roles(menuNamed(buildAppMenu(context, { showAbout: () => undefined }), 'Edit'))).toEqual([
        'undo',
        'redo',
        'cut',
        'copy',
        'paste',
        'selectAll',
      ]);
    }
  });

  it('offers developer tools only when not packaged', () => {
    const noop = { showAbout: () => undefined };
    const zoomAndScreen = ['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen'];
    expect(roles(menuNamed(buildAppMenu(linux, noop), 'View'))).toEqual(['reload', 'forceReload', ...zoomAndScreen]);
    expect(roles(menuNamed(buildAppMenu({ ...linux, isPackaged: false }, noop), 'View'))).toEqual([
      'reload',
      'forceReload',
      'toggleDevTools',
      ...zoomAndScreen,
    ]);
  });

  it('minimizes and closes windows, and zooms them on macOS', () => {
    const noop = { showAbout: () => undefined };
    expect(roles(menuNamed(buildAppMenu(linux, noop), 'Window'))).toEqual(['minimize', 'close']);
    expect(roles(menuNamed(buildAppMenu(mac, noop), 'Window'))).toEqual(['minimize', 'zoom', 'front']);
  });

  it('shows About from Help (and from the app menu on macOS), and opens no links', () => {
    const showAbout = vi.fn();
    const template = buildAppMenu(mac, { showAbout });
    const about = items(menuNamed(template, 'Help'));
    expect(about.map((item) => item.label)).toEqual(['About Provisioning Workstation']);
    about[0].click?.({} as never, undefined, {} as never);
    items(template[0])[0].click?.({} as never, undefined, {} as never);
    expect(showAbout).toHaveBeenCalledTimes(2);
    // Every item is a standard role, a separator or About: nothing that could open a URL.
    const all = template.flatMap((menu) => menu.submenu as MenuItem[]);
    expect(all.filter((item) => !item.role && item.type !== 'separator').map((item) => item.label)).toEqual([
      'About Provisioning Workstation',
      'About Provisioning Workstation',
    ]);
  });

  it('says the name and version in About', () => {
    const options = aboutDialogOptions(linux, '/home/field/.config/provisioning-workstation');
    expect(options.message).toBe('Provisioning Workstation 0.1.0');
    expect(options.detail).toContain('/home/field/.config/provisioning-workstation');
  });
});
