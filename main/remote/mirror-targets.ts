import { statSync } from 'node:fs';
import type { RemoteProfilesRepo } from '../service/store/remote-profiles-repo';
import type { CheckTargets, MirrorTarget } from '../service/workbooks/check-targets';
import { mirrorFile, openMirror, type MirrorStore } from './mirror-workspace';

/**
 * The profiles' mirrors as the staged workbooks check against them, each opened once and kept
 * while its file is the same one (a whole pull puts a new file in its place: then it is opened
 * again). The remote user is the profile's, with the rights of an admin at the node the mirror was
 * pulled from: the remote itself judges the rest when the workbook is pushed.
 */
export class MirrorTargets implements CheckTargets {
  private readonly open = new Map<string, { mirror: MirrorStore; inode: number }>();

  constructor(
    private readonly dataDir: string,
    private readonly profiles: RemoteProfilesRepo,
  ) {}

  mirrorOf(profilePkid: string): MirrorTarget | undefined {
    const profile = this.profiles.find(profilePkid);
    if (!profile) return undefined;
    const file = mirrorFile(this.dataDir, profilePkid);
    let inode: number;
    try {
      inode = statSync(file).ino;
    } catch {
      this.forget(profilePkid);
      return undefined;
    }
    let held = this.open.get(profilePkid);
    if (held?.inode !== inode) {
      this.forget(profilePkid);
      const mirror = openMirror(this.dataDir, profilePkid);
      if (!mirror) return undefined;
      this.open.set(profilePkid, (held = { mirror, inode }));
    }
    const last = held.mirror.pulls.last();
    const home = last && held.mirror.store.nodes.get(last.home_pkid);
    if (!last || !home) return undefined;
    return {
      profileName: profile.name,
      store: held.mirror.store,
      file,
      caller: {
        principal: { pkid: `remote:${profile.pkid}`, username: profile.username, role: 'admin', hierarchyPkid: home.pkid },
        callerPath: home.path,
      },
      pulledAt: last.pulled_at,
    };
  }

  /** Lets go of a mirror's connection (its profile removed, or the process closing). */
  forget(profilePkid: string): void {
    this.open.get(profilePkid)?.mirror.close();
    this.open.delete(profilePkid);
  }

  close(): void {
    for (const profilePkid of [...this.open.keys()]) this.forget(profilePkid);
  }
}
