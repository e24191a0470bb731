// The generic tests of suites/engine/resources/, run over every resource description (em-descriptions.ts).
import { queryEtag, unknownAndForeign } from '../engine/resources/index.ts';
import { EM_IO, NO_OTHER, emTest } from './em-client.ts';
import { RESOURCES } from './em-descriptions.ts';

emTest.each(
  RESOURCES.map((r) => r.query),
  (q) => ({
    rules: [q.rules.etagHeader, q.rules.notModified],
    name: `GET ${q.collection} answers an ETag; If-None-Match of an unchanged result is 304; ${q.change}`,
    options: q.options,
  }),
  (t, q) => queryEtag(t, EM_IO, q),
);

emTest.each(
  RESOURCES.map((r) => r.unknown),
  (d) => ({
    rules: [d.rule],
    name: `GET of an unknown ${d.noun} id${d.malformed ? ', of one of another form' : ''}, or of one of another tenant answers 404`,
    options: d.options,
  }),
  (t, d) => unknownAndForeign(t, EM_IO, d, { as: 'otherTenant', absent: NO_OTHER }),
);
