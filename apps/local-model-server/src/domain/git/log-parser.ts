/**
 * `git log -z --format=…` with NUL between fields: with `-z` commits are NUL-separated too, and
 * since no field can hold a NUL every commit is exactly LOG_FIELDS tokens.
 */
export const LOG_FORMAT = "%H%x00%h%x00%aI%x00%an%x00%ae%x00%s%x00%b";
const LOG_FIELDS = 7;

export interface CommitInfo {
  fullHash: string;
  hash: string;
  date: string;
  author: string;
  email: string;
  subject: string;
  body: string;
}

export function parseLog(output: string): CommitInfo[] {
  const tokens = output.split("\0");
  if (tokens.length % LOG_FIELDS === 1 && tokens.at(-1)?.trim() === "") tokens.pop();
  const commits: CommitInfo[] = [];
  for (let i = 0; i + LOG_FIELDS <= tokens.length; i += LOG_FIELDS) {
    const [fullHash = "", hash = "", date = "", author = "", email = "", subject = "", body = ""] = tokens.slice(i, i + LOG_FIELDS);
    commits.push({ fullHash: fullHash.trim(), hash, date, author, email, subject, body: body.trim() });
  }
  return commits;
}
