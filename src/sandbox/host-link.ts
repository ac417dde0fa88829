import { fork } from 'node:child_process';
import net from 'node:net';
import path from 'node:path';
import { HOST_NODE_FLAGS } from '../node-flags';
import { framedSocket } from './framed-socket';
import type { FrontMessage, HostMessage, SandboxLimits } from './protocol';

const HOST_FILE = path.join(__dirname, '..', '..', 'workers', 'sandbox-host.js');

export interface HostLinkListener {
  batch(batch: HostMessage[]): void;
  /** What the process wrote to its stderr (only a host this front started). */
  output(text: string): void;
  /** The process ended, or the connection to it did. */
  ended(): void;
}

/** How a front reaches one sandbox host: the process it started, or a connection to another front's. */
export interface HostLink {
  readonly pid: number;
  /** The host's socket, where every front thread connects. */
  readonly address: string;
  start(listener: HostLinkListener): void;
  send(batch: FrontMessage[]): void;
  /** Closes this front's connection to the host (a draining host ends once every front has). */
  release(): void;
  /** Kills the process (a host this front started) or closes the connection (another front's). */
  end(): void;
  readonly ended: Promise<void>;
}

/** Messages about the host's life, which go to its owner over the IPC channel; the rest go over the socket. */
const CONTROL = new Set<FrontMessage['t']>(['ping', 'drain']);

/**
 * Starts a host process listening on `address` (a socket path). Its executions go over a connection
 * to that socket, as any front thread's; the IPC channel carries its life: `ready`, pings, drain.
 */
export function forkHost(limits: SandboxLimits, address: string): HostLink {
  const child = fork(HOST_FILE, [JSON.stringify(limits), address], {
    execArgv: [...HOST_NODE_FLAGS],
    serialization: 'advanced',
    // stderr is read, and logged by the front with the host's pid, never left to fill its pipe.
    stdio: ['ignore', 'inherit', 'pipe', 'ipc'],
  });
  const exited = () => child.exitCode !== null || child.signalCode !== null;
  const ended = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  let connection: HostLink | undefined;
  let released = false;
  return {
    pid: child.pid ?? 0,
    address,
    start(listener) {
      child.stderr!.setEncoding('utf8');
      child.stderr!.on('data', (text: string) => listener.output(text));
      child.on('message', (batch: HostMessage[]) => {
        // Listening: the connection's own `ready` makes the host ready for this front.
        if (batch.some((message) => message.t === 'ready') && !connection) {
          connection = connectHost(address, child.pid ?? 0);
          // Closed by the host's end, or released by this front: anything else is a fault, and the host goes.
          connection.start({ batch: (messages) => listener.batch(messages), output: () => {}, ended: () => !released && !exited() && child.kill('SIGKILL') });
        }
        listener.batch(batch.filter((message) => message.t !== 'ready'));
      });
      // A send to a host that just died fails here; its exit answers everything.
      child.on('error', () => {});
      child.on('exit', () => {
        connection?.end();
        listener.ended();
      });
    },
    send(batch) {
      let control: FrontMessage[] | undefined;
      let data: FrontMessage[] | undefined;
      for (const message of batch) (CONTROL.has(message.t) ? (control ??= []) : (data ??= [])).push(message);
      if (control && child.connected) child.send(control);
      if (data) connection?.send(data);
    },
    release() {
      released = true;
      connection?.release();
    },
    end() {
      if (!exited()) child.kill('SIGKILL');
    },
    ended,
  };
}

/** Connects to a host's socket: another front thread's host, or one this front started. */
export function connectHost(address: string, pid: number): HostLink {
  const socket = net.connect(address);
  socket.setNoDelay(true);
  const ended = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  let send: (batch: FrontMessage[]) => void = () => {};
  return {
    pid,
    address,
    start(listener) {
      send = framedSocket<HostMessage, FrontMessage>(socket, (batch) => listener.batch(batch));
      // A host that died or refused the connection: its close answers everything.
      socket.on('error', () => socket.destroy());
      socket.on('close', () => listener.ended());
    },
    send: (batch) => send(batch),
    release: () => socket.end(),
    end() {
      socket.destroy();
    },
    ended,
  };
}
