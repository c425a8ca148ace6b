import { parseArgs } from 'node:util';
import { AlertSeverity } from '#shared/constants/alerts.ts';
import { join } from 'node:path';
import { listDevices, loadDevice, saveDevice, type DeviceState } from './device-state.ts';
import { readEnrolmentKey } from './mdm-config.ts';
import { DEFAULT_DATA_DIR, resolveStackUrl } from './stack-url.ts';
import { record, RECORD_TYPES, recordOptionsProblem, type RecordOptions, type RecordType } from './recorder.ts';
import {
  answerCommands,
  authenticate,
  enrol,
  factoryReset,
  raiseDeviceAlert,
  reinstall,
  sendGps,
  sendLogs,
  sendTelemetry,
  type CallResult,
  type Simulator,
} from './simulator.ts';

/**
 * `npm run device -- <command> [options]`: one simulated phone against the local stack (README of the commands:
 * `npm run device -- help`). State lives in `<dir>/<device>.json`; the enrolment key comes from the MDM configuration
 * the stack writes at start (`mdm-config.ts`).
 */
const USAGE = `Usage: npm run device -- <command> [options]

Commands:
  enrol           a new phone: --client demo --phone +447700900123 [--imei 356938035643809] [--installation-id X | --no-installation-id]
  authenticate    authenticate again (prints install_state)
  telemetry       upload a sealed telemetry snapshot
  gps             upload a sealed GPS trail: --points N (default 10)
  logs            upload log lines: --count N (default 5)
  commands        poll and answer commands (Acknowledged, then Completed)
  record          record media and upload it through the payload pipeline, then wait for its state:
                  --type Call|Interview|Photo|Video|SMS [--eicar] [--tamper]
                  (Call, Interview: WAV tone · Photo: PNG · Video: animated PNG · SMS: a thread of 3 messages;
                   --eicar uploads the EICAR test file instead (Quarantined, state failed); --tamper flips a
                   ciphertext byte (Failed))
                  --type SMS --text "…" [--direction O|I]: one SMS with that text, sent (O, default) or received (I)
                  --type Interview|Photo|Video --notes "…": with those notes (lexicon policies read both)
  alert           raise a device alert: --subject S --message M [--severity Low|Medium|High]
  factory-reset   wipe the phone: new installation id, same IMEI, authenticate
  reinstall       reinstall the app: new installation id [--app-version V], authenticate
  list            the saved devices

Options: --device NAME (default phone) · --data-dir DIR (the stack's, default .data) · --dir DIR (default <data-dir>/devices)
         --url BASE (default: VERITY_URL, else http://localhost:$PORT, else the stack running on <data-dir>, else
         http://localhost:3000)`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    url: { type: 'string' },
    'data-dir': { type: 'string', default: DEFAULT_DATA_DIR },
    dir: { type: 'string' },
    device: { type: 'string', default: 'phone' },
    client: { type: 'string', default: 'demo' },
    phone: { type: 'string', multiple: true },
    imei: { type: 'string', multiple: true },
    'installation-id': { type: 'string' },
    'no-installation-id': { type: 'boolean', default: false },
    'app-version': { type: 'string' },
    points: { type: 'string', default: '10' },
    count: { type: 'string', default: '5' },
    subject: { type: 'string', default: 'Simulated alert' },
    message: { type: 'string', default: 'Raised by the device simulator' },
    severity: { type: 'string', default: 'Low' },
    type: { type: 'string', default: 'Call' },
    eicar: { type: 'boolean', default: false },
    tamper: { type: 'boolean', default: false },
    text: { type: 'string' },
    notes: { type: 'string' },
    direction: { type: 'string' },
    help: { type: 'boolean', short: 'h', default: false },
  },
});

const command = positionals[0] ?? 'help';
const dataDir = values['data-dir'];
const directory = values.dir ?? join(dataDir, 'devices');
// Found once, before any command: the stack on whatever port it runs (its stack.json), unless told otherwise.
const stackUrl = command === 'help' || command === 'list' || values.help ? undefined : await resolveStackUrl({ url: values.url, env: process.env, dataDir });
const sim: Simulator = { baseUrl: stackUrl?.url ?? '', enrolmentKey: (client) => readEnrolmentKey(directory, client) };

const isDirection = (value: string): value is 'O' | 'I' => value === 'O' || value === 'I';

function positiveInt(name: string, raw: string, max: number): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1 || value > max) throw new Error(`--${name} must be a whole number from 1 to ${max}`);
  return value;
}

function device(): DeviceState {
  const state = loadDevice(directory, values.device);
  if (state === undefined) throw new Error(`No device "${values.device}" in ${directory}: run enrol first`);
  return state;
}

/** Prints one call's outcome; 501 is reported as not built yet, not as a failure of the simulator. */
function report(label: string, result: CallResult<object>): boolean {
  if (result.notImplemented) {
    console.log(`${label}: 501, not implemented by the server yet`);
    return true;
  }
  // The device token is a credential: shown shortened (the state file keeps it).
  const body = 'access_token' in result.body ? { ...result.body, access_token: `${String(result.body.access_token).slice(0, 12)}…` } : result.body;
  console.log(`${label}: ${result.status} ${JSON.stringify(body)}`);
  return result.ok;
}

async function main(): Promise<boolean> {
  if (values.help || command === 'help') {
    console.log(USAGE);
    return true;
  }
  if (command === 'list') {
    for (const name of listDevices(directory)) {
      const state = loadDevice(directory, name) as DeviceState;
      console.log(`${name}  ${state.client}  ${state.device_reference}  imei ${state.imeis.join(',')}  ${state.last_install_state ?? 'never authenticated'}`);
    }
    return true;
  }
  if (command === 'enrol') {
    if (loadDevice(directory, values.device) !== undefined) throw new Error(`Device "${values.device}" exists: pick another --device name`);
    const { state, result } = await enrol(sim, {
      name: values.device,
      client: values.client,
      phoneNumbers: values.phone ?? ['+447700900123'],
      ...(values.imei === undefined ? {} : { imeis: values.imei }),
      ...(values['no-installation-id'] ? { installationId: false as const } : values['installation-id'] === undefined ? {} : { installationId: values['installation-id'] }),
    });
    saveDevice(directory, state);
    console.log(`device ${state.name}: reference ${state.device_reference}`);
    return report('authenticate', result);
  }
  const state = device();
  try {
    switch (command) {
      case 'authenticate':
        return report('authenticate', await authenticate(sim, state));
      case 'telemetry':
        return report('telemetry', await sendTelemetry(sim, state));
      case 'gps':
        return report('gps', await sendGps(sim, state, positiveInt('points', values.points, 1000)));
      case 'logs':
        return report('logs', await sendLogs(sim, state, positiveInt('count', values.count, 1000)));
      case 'alert':
        return report(
          'alert',
          await raiseDeviceAlert(sim, state, { subject: values.subject, message: values.message, severity: AlertSeverity.parse(values.severity) }),
        );
      case 'commands': {
        const run = await answerCommands(sim, state);
        if (!run.poll.ok) return report('commands', run.poll);
        console.log(`commands: ${run.answered.length} answered`);
        for (const answer of run.answered) console.log(`  ${answer.command} ${answer.command_reference}: ${answer.states.join(' → ')}`);
        return true;
      }
      case 'record': {
        const type = values.type as RecordType;
        if (!RECORD_TYPES.includes(type)) throw new Error(`--type must be one of ${RECORD_TYPES.join(', ')}`);
        const direction = values.direction;
        if (direction !== undefined && !isDirection(direction)) throw new Error('--direction must be O (sent) or I (received)');
        const given: Pick<RecordOptions, 'text' | 'notes' | 'direction'> = { ...(values.text === undefined ? {} : { text: values.text }), ...(values.notes === undefined ? {} : { notes: values.notes }), ...(direction === undefined ? {} : { direction }) };
        const problem = recordOptionsProblem(type, given);
        if (problem !== undefined) throw new Error(problem);
        const results = await record(sim, state, type, { eicar: values.eicar, tamper: values.tamper, ...given });
        for (const result of results) {
          if (result.refused !== undefined) report(`record ${result.payload_type}`, result.refused);
          else console.log(`record ${result.payload_type} ${result.payload_reference ?? ''}: ${result.state}`);
        }
        // Settled either way (a quarantined or tampered upload is meant to fail): only refusals and timeouts fail.
        return results.every((result) => result.state === 'processed' || result.state === 'failed');
      }
      case 'factory-reset':
        return report('factory-reset', await factoryReset(sim, state));
      case 'reinstall':
        return report('reinstall', await reinstall(sim, state, values['app-version']));
      default:
        console.error(`Unknown command ${command}\n\n${USAGE}`);
        return false;
    }
  } finally {
    // Tokens, installation id and position move with each call: always keep what the phone now knows.
    saveDevice(directory, state);
  }
}

try {
  process.exitCode = (await main()) ? 0 : 1;
} catch (error) {
  const cause = (error as { cause?: { code?: string } }).cause;
  if (cause?.code === 'ECONNREFUSED') console.error(`Nothing answers at ${sim.baseUrl} (${stackUrl?.from ?? 'no stack'}): start the local stack (npm start) first`);
  else console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
