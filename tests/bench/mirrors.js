// Files of public repositories at pinned commits, read from git mirrors (the make scripts of
// tests/data/: lists-make.js, records-make.js). Each repository is
// MIRROR_DIR/<owner>+<name>/repo, a bare git directory or one with .git/.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';

/**
 * gitShow(source, path): the bytes of `path` at the pinned commit of repos[source]
 * ({ repo: 'owner/name', commit }), from the mirrors under mirrorDir.
 */
export function pinnedFiles(mirrorDir, repos) {
  const gitDir = (repo) => {
    const base = join(mirrorDir, repo.replace('/', '+'), 'repo');
    return existsSync(join(base, '.git')) ? join(base, '.git') : base;
  };
  return (source, path) => {
    const { repo, commit } = repos[source];
    return execFileSync('git', ['--git-dir', gitDir(repo), 'show', `${commit}:${path}`], { maxBuffer: 64 << 20 });
  };
}
