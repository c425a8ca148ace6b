import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import * as F from './fields.ts';
import { formatIssues } from './messages.ts';
import { Schedule } from './schedule.ts';

/** The friendly lines a value produces, or [] when it is valid. */
const lines = (schema: z.ZodType, value: unknown): string[] => {
  const result = schema.safeParse(value);
  return result.success ? [] : formatIssues(result.error);
};

const valid = (schema: z.ZodType, ...values: unknown[]) => {
  for (const value of values) expect(lines(schema, value), JSON.stringify(value)).toEqual([]);
};
const invalid = (schema: z.ZodType, message: string, ...values: unknown[]) => {
  for (const value of values) expect(lines(schema, value), JSON.stringify(value)).toContain(message);
};

describe('CIDR range', () => {
  it('accepts 1 to 4 dotted numbers, a slash and 1 to 2 digits', () => {
    valid(F.CidrRange, '10.0.0.0/8', '192.168.1.1/32', '10/8', '172.16/12', '0.0.0.0/0');
  });
  it('rejects anything else with the spec message', () => {
    invalid(F.CidrRange, 'Must be a valid CIDR range', '10.0.0.0', '10.0.0.0/', '10.0.0.0/123', '1.2.3.4.5/8', '256.0.0.0/8', '10.0.0.0/33', ' 10.0.0.0/8', 'a.b.c.d/8', '');
  });
});

describe('client app reference', () => {
  it('accepts 3 to 60 of letters, digits, - _ . ! ( ) and inner spaces', () => {
    valid(F.AppReference, 'abc', 'My App (prod)!', 'a_b-c.d', 'x'.repeat(60));
  });
  it('rejects leading or trailing spaces and other characters', () => {
    const message = 'Must contain only letters, numbers, spaces and -_.!(), with no leading or trailing space';
    invalid(F.AppReference, message, ' abc', 'abc ', 'ab/c', 'a,bc', 'abc@d');
  });
  it('rejects lengths outside 3 to 60', () => {
    invalid(F.AppReference, 'Must be between 3 and 60 characters', 'ab', 'x'.repeat(61));
  });
});

describe('OIDC issuer, jwks_uri and audience', () => {
  it('issuer and jwks_uri must start with https://', () => {
    valid(F.HttpsUrl, 'https://idp.example.com', 'https://idp.example.com/.well-known/jwks.json');
    invalid(F.HttpsUrl, 'Must start with https://', 'http://idp.example.com', 'idp.example.com', 'https://', 'ftp://x', ' https://x.com');
  });
  it('audience is at least 5 characters', () => {
    valid(F.OidcAudience, 'abcde', 'api://verity');
    invalid(F.OidcAudience, 'Must be at least 5 characters', 'abcd', '');
  });
});

describe('device user reference', () => {
  it('accepts 3 to 60 characters without commas or a leading space', () => {
    valid(F.DeviceUserReference, 'abc', 'john.smith+1', 'a b', 'x'.repeat(60));
  });
  it('rejects commas and a leading space or comma', () => {
    invalid(F.DeviceUserReference, 'Cannot start with leading space, cannot contain a comma', ' abc', ',abc', 'ab,c');
    invalid(F.DeviceUserReference, 'Must be between 3 and 60 characters', 'ab', 'x'.repeat(61));
  });
});

describe('device reference', () => {
  it('accepts references without , + # / : or a leading space', () => {
    valid(F.DeviceReference, '01HZXABCDEFGHJKMNPQRSTVWXY', 'device-1', 'a b');
  });
  it('rejects the forbidden characters anywhere and a leading space', () => {
    const message = 'Cannot start with any of " ,+#/:", cannot include ",+#/:"';
    invalid(F.DeviceReference, message, ' dev', 'de,v', 'de+v', 'de#v', 'de/v', 'de:v', '+dev', ':dev');
  });
});

describe('first name and surname', () => {
  it('accept 1 to 35 characters without commas or a leading space', () => {
    valid(F.FirstName, 'A', 'Mary Jane', "O'Brien", 'x'.repeat(35));
    valid(F.Surname, 'Smith-Jones');
  });
  it('reject commas, a leading space and bad lengths', () => {
    invalid(F.FirstName, 'Cannot start with leading space, cannot contain a comma', ' Mary', 'Smith, John');
    invalid(F.Surname, 'Must be between 1 and 35 characters', '', 'x'.repeat(36));
  });
});

describe('email', () => {
  it('accepts 3 to 255 characters with @ and a domain', () => {
    valid(F.Email, 'a@b.co', 'first.last+tag@example.co.uk');
  });
  it('rejects addresses without @ or a domain', () => {
    invalid(F.Email, 'Must be a valid email address', 'abc', 'a@b', '@b.com', 'a@.com', 'a b@c.com', 'a@b.');
    invalid(F.Email, 'Must be between 3 and 255 characters', 'ab', `${'a'.repeat(250)}@b.com`);
  });
});

describe('expected device count', () => {
  it('defaults to 1 and accepts integers at least 0', () => {
    expect(F.ExpectedDeviceCount.parse(undefined)).toBe(1);
    valid(F.ExpectedDeviceCount, 0, 5);
  });
  it('rejects negatives and fractions', () => {
    invalid(F.ExpectedDeviceCount, 'Must be at least 0', -1);
    invalid(F.ExpectedDeviceCount, 'Please provide a valid integer for the field.', 1.5);
    invalid(F.ExpectedDeviceCount, 'Please provide a valid number for the field.', '2');
  });
});

describe('licence limits', () => {
  it('accept integers 0 to 100000', () => {
    valid(F.LicenceLimit, 0, 100000, 42);
  });
  it('reject values out of range or fractional', () => {
    invalid(F.LicenceLimit, 'Must be a number between 0 and 100000', -1, 100001);
    invalid(F.LicenceLimit, 'Please provide a valid integer for the field.', 0.5);
  });
});

describe('bulk requests', () => {
  const ulid = (n: number) => `01HZX${String(n).padStart(21, '0')}`;
  it('accept 1 to 100 unique references', () => {
    valid(F.AlertReferenceList, [ulid(1)], Array.from({ length: 100 }, (_, i) => ulid(i)));
    valid(F.PayloadReferenceList, [ulid(1), ulid(2)]);
  });
  it('reject empty, oversized and duplicate lists', () => {
    invalid(F.AlertReferenceList, 'Must contain between 1 and 100 items', [], Array.from({ length: 101 }, (_, i) => ulid(i)));
    invalid(F.PayloadReferenceList, 'Must not contain duplicates', [ulid(1), ulid(1)]);
    expect(lines(F.AlertReferenceList, ['not-a-ulid'])).toEqual(['0: Must be a valid ULID']);
  });
});

describe('tag value', () => {
  it('is at most 255 characters', () => {
    valid(F.TagValue, '', 'x'.repeat(255));
    invalid(F.TagValue, 'Must be at most 255 characters', 'x'.repeat(256));
  });
});

describe('call parties and interview pause times', () => {
  it('calls need 1 to 1000 second parties, blocked calls 0 to 1000', () => {
    const call = F.callPartiesList(F.text(1, 100));
    valid(call, ['a'], Array.from({ length: 1000 }, () => 'a'));
    invalid(call, 'Must contain between 1 and 1000 items', [], Array.from({ length: 1001 }, () => 'a'));
    const blocked = F.callPartiesList(F.text(0, 10), true);
    valid(blocked, [], ['a']);
    invalid(blocked, 'Must contain between 0 and 1000 items', Array.from({ length: 1001 }, () => 'a'));
  });
  it('interviews take 0 to 1000 pause times of non-negative integers', () => {
    valid(F.InterviewPauseTimes, [], [0, 5], Array.from({ length: 1000 }, () => 1));
    invalid(F.InterviewPauseTimes, 'Must contain between 0 and 1000 items', Array.from({ length: 1001 }, () => 1));
    expect(lines(F.InterviewPauseTimes, [-1])).toEqual(['0: Must be at least 0']);
  });
  it('call duration and size are integers at least 0', () => {
    valid(F.NonNegativeInt, 0, 10);
    invalid(F.NonNegativeInt, 'Must be at least 0', -5);
    invalid(F.NonNegativeInt, 'Please provide a valid integer for the field.', 2.5);
  });
});

describe('device service list', () => {
  it('needs at least 1 known service, no duplicates', () => {
    valid(F.ServiceList, ['calls'], ['calls', 'sms', 'gps']);
    invalid(F.ServiceList, 'Must contain at least 1 item', []);
    invalid(F.ServiceList, 'Must not contain duplicates', ['sms', 'sms']);
    expect(lines(F.ServiceList, ['fax'])).toEqual(['0: Must be one of: calls, interviews, gps, photos, mms, rcs, sms, videos']);
  });
});

describe('transfer rules', () => {
  it('S3 destination starts with s3:// and has at least 6 characters', () => {
    valid(F.S3Destination, 's3://b', 's3://bucket/prefix/');
    invalid(F.S3Destination, 'Must start with s3://', 'https://bucket', 'bucket', 'S3://bucket');
    invalid(F.S3Destination, 'Must be at least 6 characters', 's3://');
  });
  it('role ARN is an IAM role ARN with a 12+ digit account, at least 31 characters', () => {
    valid(F.IamRoleArn, 'arn:aws:iam::123456789012:role/Transfer', 'arn:aws:iam::123456789012:role/path/to/My-Role_1');
    invalid(
      F.IamRoleArn,
      'Must be a valid AWS IAM role ARN',
      'arn:aws:iam::12345678901:role/Transfer',
      'arn:aws:iam::123456789012:user/Someone',
      'arn:aws:s3:::123456789012:role/x',
      'arn:aws:iam::123456789012:role/',
      'role/Transfer',
    );
  });
  it('SFTP root directory starts with /', () => {
    valid(F.SftpRootDirectory, '/', '/exports/verity');
    invalid(F.SftpRootDirectory, 'Must start with a leading slash "/"', 'exports', '', ' /x');
  });
  it('schedule is a cron or rate expression, or empty', () => {
    valid(Schedule, '', 'rate(1 hour)', 'rate(5 minutes)', 'rate(2 days)', 'cron(0 12 * * ? *)', 'cron(15 10 ? * MON-FRI *)', 'cron(0 0 1 * ? 2030)');
    invalid(
      Schedule,
      'Must be a valid cron or rate expression',
      'rate(0 minutes)',
      'rate(5 minute)',
      'rate(1 hours)',
      'rate(five minutes)',
      'cron(0 12 * *)',
      'cron(99 12 * * ? *)',
      'cron(0 12 * * ? 20x0)',
      '0 12 * * *',
      'every day',
      ' ',
    );
  });
  it('PGP key is a PGP public key block', () => {
    const key = '-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nmQINBGA1b2cBEAC+abcdEFGH1234=\n=abcd\n-----END PGP PUBLIC KEY BLOCK-----\n';
    valid(F.PgpPublicKey, key);
    invalid(
      F.PgpPublicKey,
      'must be a valid PGP key',
      'not a key',
      '-----BEGIN PGP PRIVATE KEY BLOCK-----\nmQINBGA1b2cBEAC\n-----END PGP PRIVATE KEY BLOCK-----',
      '-----BEGIN PGP PUBLIC KEY BLOCK-----\n-----END PGP PUBLIC KEY BLOCK-----',
    );
  });
});

describe('retention days, query total, sms length, country code', () => {
  it('retention days are at least 0', () => {
    valid(F.RetentionDays, 0, 3650);
    invalid(F.RetentionDays, 'Must be at least 0', -1);
  });
  it('query total and sms length are integers at least 0', () => {
    valid(F.QueryTotal, 0, 7);
    valid(F.SmsLength, 160);
    invalid(F.QueryTotal, 'Must be at least 0', -1);
    invalid(F.SmsLength, 'Please provide a valid integer for the field.', 1.1);
  });
  it('country code is an integer 1 to 99', () => {
    valid(F.CountryCode, 1, 44, 99);
    invalid(F.CountryCode, 'Must be a number between 1 and 99', 0, 100);
  });
});

describe('dates', () => {
  it('DateTimeIso: YYYY-MM-DD, T or space, optional milliseconds, optional Z', () => {
    valid(F.DateTimeIso, '1999-01-01T16:50:00', '1999-01-01 16:50:00', '1999-01-01T16:50:00.123Z', '2024-02-29T00:00:00Z');
    invalid(F.DateTimeIso, 'Must be an ISO date like 1999-01-01T16:50:00Z', '1999-01-01', '1999-13-01T00:00:00Z', '2023-02-29T00:00:00Z', '1999-01-01T25:00:00Z', '01/01/1999 10:00:00', '1999-01-01T10:00:00+01:00');
  });
  it('DateTimeParam: a date with an optional -HHMMSS', () => {
    valid(F.DateTimeParam, '1999-01-01', '1999-01-01-165000');
    invalid(F.DateTimeParam, 'Must be a date like 1999-01-01, or 1999-01-01-165000', '1999-01-01T16:50:00', '1999-1-1', '1999-01-01-1650', '1999-02-30', '1999-01-01-256000');
  });
});

describe('shared field types', () => {
  it('enforce their lengths', () => {
    valid(F.GroupReference, 'ab');
    invalid(F.GroupReference, 'Must be between 2 and 255 characters', 'a', 'x'.repeat(256));
    valid(F.RoleReference, 'abc');
    invalid(F.RoleReference, 'Must be between 3 and 35 characters', 'ab', 'x'.repeat(36));
    valid(F.TagKey, 'k');
    invalid(F.TagKey, 'Must be between 1 and 60 characters', '', 'x'.repeat(61));
    invalid(F.UserReference, 'Must be between 3 and 255 characters', 'ab');
    invalid(F.PhoneNumberLocal, 'Must be between 3 and 255 characters', '12');
    valid(F.PayloadReference, 'x'.repeat(26), 'x'.repeat(36));
    invalid(F.PayloadReference, 'Must be between 26 and 36 characters', 'x'.repeat(25), 'x'.repeat(37));
    valid(F.MessageId, null, 'x'.repeat(32));
    invalid(F.MessageId, 'Must be exactly 32 characters', 'x'.repeat(31));
    invalid(F.OAuth2Code, 'Must be exactly 36 characters', 'x'.repeat(35));
    invalid(F.TransferConfigReference, 'Must be between 3 and 255 characters', 'ab');
    invalid(F.UuidTimestamp, 'Must be at least 32 characters', 'x'.repeat(31));
    invalid(F.LogMessage, 'Must be at least 1 character', '');
    invalid(F.LogMessage, 'Must be at most 32768 characters', 'x'.repeat(32 * 1024 + 1));
    valid(F.PhoneNumber, null, '+44123', '999');
    invalid(F.PhoneNumber, 'Must be between 1 and 255 characters', '');
  });
  it('IMEIs are exactly 15 digits', () => {
    valid(F.Imei, '490154203237518');
    invalid(F.Imei, 'Must be exactly 15 digits', '49015420323751', '4901542032375189', '49015420323751a');
  });
  it('key ids are alphanumeric with :/-', () => {
    valid(F.KeyId, 'arn:aws:kms:eu-west-2:123456789012:key/1234abcd-12ab-34cd-56ef-1234567890ab', 'local-key-1');
    invalid(F.KeyId, 'Must be alphanumeric with :/-', 'key id', 'key;drop');
  });
  it('client ids are DNS-label-like', () => {
    valid(F.ClientId, 'admin', 'acme-corp', 'a1');
    invalid(F.ClientId, 'Must be 2 to 63 lowercase letters, digits or -, starting with a letter or digit', 'A', 'Acme', '-acme', 'acme_corp', '../etc', 'x'.repeat(64));
  });
  it('query booleans accept only true and false', () => {
    expect(F.QueryBoolean.parse('true')).toBe(true);
    expect(F.QueryBoolean.parse('false')).toBe(false);
    invalid(F.QueryBoolean, 'Must be true or false', '1', 'yes', 'TRUE', '');
  });
});

describe('printable references', () => {
  const REFERENCES = {
    GroupReference: F.GroupReference,
    RoleReference: F.RoleReference,
    TagKey: F.TagKey,
    UserReference: F.UserReference,
    DeviceUserReference: F.DeviceUserReference,
    DeviceReference: F.DeviceReference,
    TransferConfigReference: F.TransferConfigReference,
  };
  const HOSTILE = [
    'sec-fuzz-user\u0000',
    '../../internal/v1/clients',
    'back\\slash',
    ' leading',
    'trailing ',
    'tab\there',
    'new\nline',
    'bell\u0007x',
    'c1\u009Fx',
    'del\u007Fx',
    'rlo\u202Ex',
    'isolate\u2066x',
    'pdi\u2069x',
    'lone\uD800x',
    'lone\uDC00x',
  ];

  it.each(Object.entries(REFERENCES))('%s refuses control characters, slashes, edge spaces, overrides and lone surrogates', (_, schema) => {
    for (const value of HOSTILE) {
      const found = lines(schema, value);
      expect(found.length, JSON.stringify(value)).toBeGreaterThan(0);
      // One problem, one line: the spec's own rule, or the reference rule, never both.
      expect(found.length, JSON.stringify(found)).toBe(1);
    }
  });

  it.each(Object.entries(REFERENCES))('%s keeps ordinary references valid', (_, schema) => {
    valid(schema, 'london-equities', 'Zürich desk', 'desk 7', 'a.b_c-d', '日本語の名前', 'עברית-desk', 'x😀z');
  });

  it('says why in the spec style', () => {
    expect(lines(F.RoleReference, '../../internal/v1/clients')).toEqual([
      'Cannot start or end with a space, cannot contain "/", "\\", control characters, text-direction overrides or unpaired surrogates',
    ]);
    // A field with a spec rule of its own keeps that rule's message.
    expect(lines(F.DeviceReference, 'dev/1')).toEqual(['Cannot start with any of " ,+#/:", cannot include ",+#/:"']);
    expect(lines(F.DeviceUserReference, ' abc')).toEqual(['Cannot start with leading space, cannot contain a comma']);
  });

  it('normalises to NFC, so one name has one spelling (and one key)', () => {
    const decomposed = 'Cafe\u0301-desk';
    expect(F.RoleReference.parse(decomposed)).toBe('Caf\u00e9-desk');
    expect(F.GroupReference.parse(decomposed)).toBe(F.GroupReference.parse('Caf\u00e9-desk'));
    // Lengths count the normalised form: 36 code units decomposed, 18 characters composed.
    expect(lines(F.RoleReference, 'e\u0301'.repeat(18))).toEqual([]);
  });

  it('client app and payload references hold the same rule', () => {
    expect(lines(F.AppReference, 'app\u0000x').length).toBe(1);
    expect(lines(F.PayloadReference, `${'0'.repeat(26)}\u202E`)).toEqual([lines(F.RoleReference, 'ab\u202Ec')[0]]);
    valid(F.PayloadReference, '01HZXABCDEFGHJKMNPQRSTVWXY', '01HZXABCDEFGHJKMNPQRSTVWXYL');
  });
});

describe('printable free text', () => {
  const message = 'Cannot contain NUL, text-direction overrides or unpaired surrogates';
  it('refuses NUL, bidirectional overrides and isolates, and lone surrogates', () => {
    for (const schema of [F.text(0, 1000), F.text(1), F.TagValue]) {
      invalid(schema, message, 'nul\u0000', '\u202Aembed', 'override\u202E', 'isolate\u2067x', 'pop\u2069', 'high\uD83D', '\uDE00low');
    }
  });
  it('keeps line breaks, tabs, right-to-left scripts, emoji and slashes', () => {
    for (const schema of [F.text(0, 1000), F.TagValue]) {
      valid(schema, 'line one\nline two', 'a\tb', 'שלום עולם', 'مرحبا', 'ok 😀', 'a/b\\c', ' padded ');
    }
  });
});
