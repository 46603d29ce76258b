// A real IMAP server for the e-mail input's tests: Debian's Dovecot (package dovecot-imapd), started as
// a foreground child process from a config of its own in a fresh temporary directory, with one user and
// a Maildir there. The input watches a mailbox, so its tests need IDLE, UIDs, UIDVALIDITY and \Seen as a
// real server does them (and a server that goes away and comes back), which no fake gets right.
//
// Runs as root (as in CI) and as any other user. As root, Dovecot refuses login processes and mail
// access as root: the login processes run as `nobody` (chrooted, as usual) and mail is accessed as
// nobody's uid, owning the Maildir; its own internal processes run as root, so neither of the package's
// users (dovecot, dovenull) is needed. As another user, everything runs as that user, without chroots.
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, closeSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ImapFlow } from 'imapflow';
import { freePort } from '../../server/db/launcher.js';

const DOVECOT = '/usr/sbin/dovecot';

export interface Mailbox {
  host: string;
  port: number;
  user: string;
  password: string;
  /** Puts a message (RFC 822 source) into the folder as a mail server's delivery would (IMAP APPEND, unseen). */
  deliver(source: string | Buffer, folder?: string): Promise<void>;
  /** The folder's messages (default INBOX) in UID order: uid, whether \Seen, the From address, the subject. */
  messages(folder?: string): Promise<Array<{ uid: number; seen: boolean; from: string; subject: string }>>;
  /** Makes a folder. */
  createFolder(name: string): Promise<void>;
  /** Stops Dovecot for a while (the server unreachable) and starts it again on the same port, same mail. */
  restart(downMs?: number): Promise<void>;
  /** Stops Dovecot (the server unreachable) until `up`; the mail stays. */
  down(): Promise<void>;
  /** Starts a stopped Dovecot again on the same port, with the same mail. */
  up(): Promise<void>;
  /**
   * Puts a message straight into INBOX's Maildir (new/, unseen), as the mail server's local delivery does
   * whether or not the IMAP server is up.
   */
  drop(source: string | Buffer): Promise<void>;
  /** The folder's UIDVALIDITY (default INBOX). */
  uidValidity(folder?: string): Promise<bigint>;
  /**
   * A server that forgets INBOX's UIDs (a restore, a migration): Dovecot is stopped, its UID list and
   * indexes of the Maildir removed, and started again, so INBOX has a new UIDVALIDITY and its messages
   * new UIDs from 1. `forgetSeen` drops the messages' flags as well (\Seen among them).
   */
  renumber(options?: { forgetSeen?: boolean }): Promise<void>;
  /** Stops Dovecot and removes its directory. */
  close(): Promise<void>;
}

// Every Dovecot still running is killed when the test process exits, whatever a test did, with all its
// processes (the master does not stop an imap process that serves a client, see `stop`), and its
// directory goes. Dovecot stays in the test's process group, so the test runner's kill of a hanging
// test file reaches all of its processes as well.
const running = new Set<ChildProcess>();
const directories = new Set<string>();
process.once('exit', () => {
  for (const child of running) {
    for (const pid of [child.pid!, ...childrenOf(child.pid!).map((c) => c.pid)]) signal(pid, 'SIGKILL');
  }
  for (const dir of directories) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
});

/** The processes whose parent is `pid`, with their command lines (Linux /proc). */
function childrenOf(pid: number): Array<{ pid: number; command: string }> {
  const found: Array<{ pid: number; command: string }> = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // pid (comm) state ppid ...: comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== pid) continue;
      found.push({
        pid: Number(name),
        command: readFileSync(`/proc/${name}/cmdline`, 'utf8').replace(/\0/g, ' ').trim(),
      });
    } catch {
      // gone meanwhile
    }
  }
  return found;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // gone already
  }
}

/** Starts Dovecot with one user on a free port of 127.0.0.1; resolves once it accepts that user's login. */
export async function startDovecot(options: { user?: string; password?: string } = {}): Promise<Mailbox> {
  const user = options.user ?? 'alarms';
  const password = options.password ?? 'alarm-hub-test';
  for (const value of [user, password]) {
    if (!value || /[:\s]/.test(value)) throw new Error(`dovecot helper: no ':' or spaces in user or password`);
  }
  const host = '127.0.0.1';
  const port = await freePort();
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'alarm-hub-dovecot-'));
  directories.add(dir);
  const configPath = path.join(dir, 'dovecot.conf');
  const logPath = path.join(dir, 'dovecot.log');
  await fs.writeFile(path.join(dir, 'passwd'), `${user}:{PLAIN}${password}\n`, { mode: 0o644 });
  await fs.mkdir(path.join(dir, 'Maildir'));
  await fs.mkdir(path.join(dir, 'home'));

  const root = process.getuid?.() === 0;
  let identity: string;
  if (root) {
    const uid = Number(execFileSync('id', ['-u', 'nobody'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'nobody'], { encoding: 'utf8' }));
    // The mail processes (as nobody) have to get through the temporary directory to the Maildir.
    await fs.chmod(dir, 0o711);
    await fs.chown(path.join(dir, 'Maildir'), uid, gid);
    await fs.chown(path.join(dir, 'home'), uid, gid);
    identity = [
      'default_login_user = nobody',
      'default_internal_user = root',
      'default_internal_group = root',
      `mail_uid = ${uid}`,
      `mail_gid = ${gid}`,
    ].join('\n');
  } else {
    const me = os.userInfo().username;
    const group = execFileSync('id', ['-gn'], { encoding: 'utf8' }).trim();
    identity = [
      `default_login_user = ${me}`,
      `default_internal_user = ${me}`,
      `default_internal_group = ${group}`,
    ].join('\n');
  }
  await fs.writeFile(configPath, config({ dir, host, port, identity, logPath, chroot: root }));

  let child: ChildProcess | null = null;
  // Dovecot writes to its log, and to stderr when it cannot (a bad config); both go into files, so
  // that a Dovecot left running does not keep the test process alive (the exit handler kills it).
  const stderrPath = path.join(dir, 'stderr.log');

  async function logTail(): Promise<string> {
    const read = (file: string) => fs.readFile(file, 'utf8').catch(() => '');
    const lines = `${await read(logPath)}\n${await read(stderrPath)}`.split('\n').filter(Boolean);
    return lines.slice(-20).join('\n');
  }

  async function start(): Promise<void> {
    const stderr = openSync(stderrPath, 'w');
    const spawned = spawn(DOVECOT, ['-F', '-c', configPath], { stdio: ['ignore', 'ignore', stderr] });
    closeSync(stderr);
    spawned.unref();
    child = spawned;
    running.add(spawned);
    let gone = false;
    spawned.once('exit', () => {
      gone = true;
      running.delete(spawned);
    });
    spawned.once('error', (error) => {
      gone = true;
      running.delete(spawned);
      appendFileSync(stderrPath, `${error}\n`);
    });
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && !gone) {
      try {
        await withClient(async () => {});
        return;
      } catch {
        await sleep(50);
      }
    }
    await stop(true);
    throw new Error(`Dovecot on port ${port} did not accept a login:\n${await logTail()}`);
  }

  // A stopped Dovecot master leaves the imap process of a logged-in client running (it goes some 10 s
  // later, and the next master accepts no login until then). So the processes that serve clients are
  // stopped along with the master, and a client sees the server go away at once, as when the machine
  // goes. (SIGTERM to all of Dovecot's processes at once makes the master wait 6 s now and then.)
  // `kill`: SIGKILL to all of them, for the end, when nothing needs Dovecot's orderly shutdown.
  async function stop(kill = false): Promise<void> {
    const target = child;
    child = null;
    if (!target?.pid || target.exitCode !== null || target.signalCode !== null) return;
    const children = childrenOf(target.pid);
    await new Promise<void>((resolve) => {
      const force = setTimeout(() => target.kill('SIGKILL'), 10_000);
      target.once('exit', () => {
        clearTimeout(force);
        resolve();
      });
      target.kill(kill ? 'SIGKILL' : 'SIGTERM');
      for (const { pid, command } of children) {
        if (kill) signal(pid, 'SIGKILL');
        else if (/^dovecot\/imap(-login)?\b/.test(command)) signal(pid, 'SIGTERM');
      }
    });
    for (const { pid } of children) signal(pid, 'SIGKILL');
  }

  /** A fresh connection for one piece of work, logged out after it. */
  async function withClient<T>(work: (client: ImapFlow) => Promise<T>): Promise<T> {
    const client = new ImapFlow({
      host,
      port,
      secure: false,
      auth: { user, pass: password },
      logger: false,
      disableAutoIdle: true,
      connectionTimeout: 2_000,
      greetingTimeout: 2_000,
    });
    client.on('error', () => {});
    try {
      await client.connect();
      return await work(client);
    } finally {
      await client.logout().catch(() => client.close());
    }
  }

  // As root, mail is accessed as nobody, who has to own what the test writes into the Maildir.
  async function ownedByMail(maildir: string): Promise<void> {
    if (process.getuid?.() !== 0) return;
    const owner = await fs.stat(maildir);
    for (const sub of ['tmp', 'new', 'cur']) {
      const folder = path.join(maildir, sub);
      await fs.chown(folder, owner.uid, owner.gid);
      for (const name of await fs.readdir(folder)) await fs.chown(path.join(folder, name), owner.uid, owner.gid);
    }
  }

  try {
    await start();
  } catch (error) {
    await fs.rm(dir, { recursive: true, force: true });
    directories.delete(dir);
    throw error;
  }

  let closed = false;
  return {
    host,
    port,
    user,
    password,
    deliver: (source, folder = 'INBOX') =>
      withClient(async (client) => {
        if (!(await client.append(folder, source))) throw new Error(`APPEND to ${folder} failed`);
      }),
    messages: (folder = 'INBOX') =>
      withClient(async (client) => {
        const lock = await client.getMailboxLock(folder, { readOnly: true });
        try {
          if (client.mailbox === false || client.mailbox.exists === 0) return [];
          const found = await client.fetchAll('1:*', { uid: true, flags: true, envelope: true });
          return found
            .map((message) => ({
              uid: message.uid,
              seen: message.flags?.has('\\Seen') ?? false,
              from: message.envelope?.from?.[0]?.address ?? '',
              subject: message.envelope?.subject ?? '',
            }))
            .sort((a, b) => a.uid - b.uid);
        } finally {
          lock.release();
        }
      }),
    createFolder: (name) =>
      withClient(async (client) => {
        await client.mailboxCreate(name);
      }),
    async restart(downMs = 2_000) {
      await stop();
      await sleep(downMs);
      await start();
    },
    down: () => stop(),
    up: () => start(),
    async drop(source) {
      // Written in tmp/ and renamed into new/, as Maildir's delivery does, so that Dovecot never reads half a file.
      const name = `${Date.now()}.${process.pid}_${Math.random().toString(36).slice(2)}.alarm-hub-test`;
      const maildir = path.join(dir, 'Maildir');
      for (const sub of ['tmp', 'new', 'cur']) await fs.mkdir(path.join(maildir, sub), { recursive: true });
      await fs.writeFile(path.join(maildir, 'tmp', name), source, { mode: 0o644 });
      await fs.rename(path.join(maildir, 'tmp', name), path.join(maildir, 'new', name));
      await ownedByMail(maildir);
    },
    uidValidity: (folder = 'INBOX') =>
      withClient(async (client) => {
        const status = await client.status(folder, { uidValidity: true });
        if (!status || status.uidValidity === undefined) throw new Error(`no UIDVALIDITY for ${folder}`);
        return status.uidValidity;
      }),
    async renumber({ forgetSeen = false } = {}) {
      await stop();
      const maildir = path.join(dir, 'Maildir');
      for (const name of await fs.readdir(maildir)) {
        if (name.startsWith('dovecot')) await fs.rm(path.join(maildir, name), { recursive: true, force: true });
      }
      if (forgetSeen) {
        // A message in cur/ keeps its flags after ':2,' in its name; moved to new/ without them, it is unread.
        for (const name of await fs.readdir(path.join(maildir, 'cur'))) {
          await fs.rename(path.join(maildir, 'cur', name), path.join(maildir, 'new', name.replace(/:2,.*$/, '')));
        }
      }
      await start();
    },
    async close() {
      if (closed) return;
      closed = true;
      await stop(true);
      await fs.rm(dir, { recursive: true, force: true, maxRetries: 3 });
      directories.delete(dir);
    },
  };
}

interface ConfigInput {
  dir: string;
  host: string;
  port: number;
  logPath: string;
  /** Which users Dovecot's processes run as, and mail is accessed as. */
  identity: string;
  /** Whether the login processes and anvil chroot as usual (only root can). */
  chroot: boolean;
}

function config(o: ConfigInput): string {
  const chroot = o.chroot ? '' : '\n  chroot =';
  return `# Written by test/helpers/dovecot.ts for one test.
protocols = imap
listen = ${o.host}
base_dir = ${o.dir}/run
state_dir = ${o.dir}/state
log_path = ${o.logPath}
info_log_path = ${o.logPath}
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login
# A wrong password fails within 0.5 s (Dovecot's check interval), not after 2 s and a growing penalty.
auth_failure_delay = 0
mail_location = maildir:${o.dir}/Maildir
# The input, the helper's own connections and a test's watchers all log in from 127.0.0.1.
mail_max_userip_connections = 100
# IDLE learns of new mail from inotify; this is the fallback should inotify be unavailable.
mailbox_idle_check_interval = 1 secs
${o.identity}
passdb {
  driver = passwd-file
  args = ${o.dir}/passwd
}
userdb {
  driver = static
  args = home=${o.dir}/home
}
namespace inbox {
  inbox = yes
  separator = /
}
service imap-login {${chroot}
  inet_listener imap {
    address = ${o.host}
    port = ${o.port}
  }
  inet_listener imaps {
    port = 0
  }
}
service anvil {${chroot}
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
`;
}
