/**
 * The current terms of use, which every portal user must accept before the dashboard opens (the portal's "terms"
 * guard). The backend records each acceptance against `valid_from`; the web shows `termsAndConditions`. Publishing
 * new terms means changing both fields here: every user is then asked again, because acceptances are kept per
 * `valid_from`. Dependency-free on purpose: the web imports this file directly.
 *
 * `termsAndConditions` is plain text; paragraphs are separated by one blank line.
 */
export const CURRENT_TERMS = Object.freeze({
  /** When these terms came into force (ISO 8601, UTC). Also the version a client must name to accept them. */
  valid_from: '2026-11-01T00:00:00.000Z',
  termsAndConditions: [
    'Verity records and keeps communications made on managed mobile devices so that your organisation can meet its ' +
      'regulatory record-keeping duties. By using this portal you agree to use it, and the recordings it holds, only ' +
      'for lawful purposes and as your organisation’s policies allow.',
    'Your organisation is responsible for telling everyone whose devices are recorded that their calls and messages ' +
      'are recorded, and for obtaining any consent the law requires before recording starts.',
    'Recordings and their records are kept for as long as your organisation’s retention policy says, and disposed of ' +
      'when it ends, unless a legal hold requires them to be kept longer. Disposal is recorded.',
    'The service provider’s support staff can see your organisation’s data only when a user of your organisation has ' +
      'approved their request for support access, only for the period approved, and every action they take is ' +
      'recorded in your activity log.',
    'Your access is personal. Do not share your sign-in details, and report any suspected misuse of the portal to your ' +
      'administrator. Everything you do in the portal is recorded in an audit trail that cannot be changed without ' +
      'detection.',
  ].join('\n\n'),
});

export type Terms = { readonly valid_from: string; readonly termsAndConditions: string };
