/**
 * Opens a URL in the user's default browser (`catdoc dashboard --open`, as the original CatDoc's
 * `-o, --open`): `open` on macOS, `start` through cmd on Windows, `xdg-open` elsewhere. The
 * browser is started detached; only a failure to start the opener is reported.
 */
import { spawn } from "node:child_process";

export interface BrowserCommand {
  command: string;
  args: string[];
}

/** The command that opens `url` on `platform`. */
export function browserCommand(url: string, platform: NodeJS.Platform): BrowserCommand {
  if (platform === "darwin") return { command: "open", args: [url] };
  // start's first quoted argument is a window title: an empty one (Node quotes "" as ""), then the URL.
  if (platform === "win32") return { command: "cmd", args: ["/c", "start", "", url] };
  return { command: "xdg-open", args: [url] };
}

/** Starts the opener; resolves once it runs, rejects when it cannot be started (e.g. no xdg-open). */
export function openInBrowser(url: string, platform: NodeJS.Platform = process.platform): Promise<void> {
  const { command, args } = browserCommand(url, platform);
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: "ignore", detached: true, windowsHide: true });
    child.once("error", (error) => reject(new Error(`${command}: ${error.message}`)));
    child.once("spawn", () => {
      child.unref();
      resolve();
    });
  });
}
