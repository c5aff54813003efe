/**
 * Which file content a workbook was staged from by the CLI (`load <file>`, `sync push <profile>
 * <file>`), so that the same command run again on the same content finds that workbook instead
 * of staging another (main/cli-rerun.ts): a push interrupted is resumed, one finished is not sent
 * again. `target`: `load`, or `push:<profile pkid>`; `hierarchy`: the --hierarchy given ('' for
 * none); `revision`: the workbook's when staged (an edit since makes it another content).
 */
export const sql = `
CREATE TABLE workbook_files (
  wb INTEGER PRIMARY KEY,
  sha256 TEXT NOT NULL,
  target TEXT NOT NULL,
  hierarchy TEXT NOT NULL,
  revision INTEGER NOT NULL,
  created_at TEXT NOT NULL
);
CREATE INDEX workbook_files_content ON workbook_files (sha256, target, hierarchy, created_at);
`;
