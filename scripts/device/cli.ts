import { parseArgs } from 'node:util';
import { AlertSeverity } from '#shared/constants/alerts.ts';
import { join } from 'node:path';
import { listDevices, loadDevice, saveDevice, type DeviceState } from './device-state.ts';
import { readEnrolmentKey } from './mdm-config.ts';
import { DEFAULT_DATA_DIR, resolveStackUrl } from './stack-url.ts';
import { reportLedger } from './ledger.ts';
import { record, RECORD_TYPES, recordOptionsProblem, uploadHeld, type RecordOptions, type RecordResult, type RecordType } from './recorder.ts';
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
                  --type Call [--direction O|I]: a call made (O, default) or received (I)
                  --hours-ago N: it happened N hours ago (default now)
                  Calls and messages go in the phone's ledger, reported after the upload (--no-ledger: keep them
                  for the next \`ledger\`). Capture gaps (docs/completeness.md), one at a time:
                  --drop: the ledger has it, no recording is uploaded (Missing once past the grace period)
                  --late: the recording is held back until \`upload-held\` (Captured late if that is past the grace
                          period: e.g. --hours-ago 30 --late, then the sweep job, then upload-held)
                  --short S: the call went on S seconds after its recording stopped (Short when S > 10)
  ledger          report the phone's ledger (calls and messages not yet reported), sealed; with nothing new it
                  still tells Verity the phone is alive and its ledger covers up to now
  upload-held     upload the recordings \`record --late\` held back, then report the ledger
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
    'hours-ago': { type: 'string' },
    drop: { type: 'boolean', default: false },
    late: { type: 'boolean', default: false },
    short: { type: 'string' },
    'no-ledger': { type: 'boolean', default: false },
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

/** `--hours-ago`: a whole or decimal number of hours up to 30 days back. */
function hoursAgo(raw: string | undefined): Date | undefined {
  if (raw === undefined) return undefined;
  const hours = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(hours) || hours < 0 || hours > 720) throw new Error('--hours-ago must be a number of hours from 0 to 720');
  return new Date(Date.now() - hours * 3_600_000);
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

/** Prints each recording's end; answers whether all settled (a quarantined or tampered upload is meant to fail). */
function printRecorded(results: RecordResult[]): boolean {
  for (const result of results) {
    if (result.refused !== undefined) report(`record ${result.payload_type}`, result.refused);
    else console.log(`record ${result.payload_type} ${result.payload_reference ?? ''}: ${result.state}`);
  }
  // Only refusals and timeouts fail: dropped and held are gaps the phone was told to make.
  return results.every((result) => ['processed', 'failed', 'dropped', 'held'].includes(result.state));
}

/** Reports the phone's ledger and prints each report's answer and what is left. */
async function sendLedger(state: DeviceState): Promise<boolean> {
  const run = await reportLedger(sim, state, new Date());
  let ok = true;
  for (const result of run.results) ok = report('ledger', result) && ok;
  console.log(`ledger: ${run.reported} entries reported, ${run.left} left, covered to ${state.ledger_covered_to ?? 'nothing yet'}`);
  return ok && run.left === 0;
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
        const at = hoursAgo(values['hours-ago']);
        const given: RecordOptions = {
          eicar: values.eicar,
          tamper: values.tamper,
          ...(values.text === undefined ? {} : { text: values.text }),
          ...(values.notes === undefined ? {} : { notes: values.notes }),
          ...(direction === undefined ? {} : { direction }),
          ...(at === undefined ? {} : { at }),
          ...(values.drop ? { drop: true } : {}),
          ...(values.late ? { late: true } : {}),
          ...(values.short === undefined ? {} : { shortSeconds: Number(values.short) }),
        };
        const problem = recordOptionsProblem(type, given);
        if (problem !== undefined) throw new Error(problem);
        const settled = printRecorded(await record(sim, state, type, given));
        return (values['no-ledger'] ? true : await sendLedger(state)) && settled;
      }
      case 'upload-held': {
        const results = await uploadHeld(sim, state);
        if (results.length === 0) console.log('upload-held: nothing held');
        const settled = printRecorded(results);
        return (await sendLedger(state)) && settled;
      }
      case 'ledger':
        return sendLedger(state);
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
