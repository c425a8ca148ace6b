/** The legacy export format (docs/migration-format.md): its rows and the streaming reader. */
export { readExportRows, type ParsedRow, type ReadOptions } from './read-export.ts';
export {
  DeviceRow,
  DeviceUserRow,
  EXPORT_FORMAT,
  EXPORT_ROW_KINDS,
  EXPORT_VERSION,
  ExportHeader,
  GroupRow,
  MAX_MEDIA_BYTES,
  RecordingRowInput,
  base64LengthOf,
  maxLineBytesFor,
  type ExportRow,
  type ExportRowKind,
  type RecordingRow,
} from './rows.ts';
