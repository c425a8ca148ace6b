/** The legacy export format (docs/migration-format.md): its rows and the streaming reader. */
export { readExportRows, type ParsedRow } from './read-export.ts';
export { DeviceRow, DeviceUserRow, GroupRow, type ExportRow, type ExportRowKind, type RecordingRow } from './rows.ts';
