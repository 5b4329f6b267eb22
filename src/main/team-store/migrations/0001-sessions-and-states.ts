/**
 * The team store's first schema: the replicated tables of the SQLite home (storage's REPLICATED_TABLES), column
 * for column (TEXT, INTEGER as BIGINT, REAL as DOUBLE PRECISION, JSON kept as the text SQLite holds), each row
 * with the `revision` it was last written at, and the state of every session a worker ran.
 *
 * One sequence numbers every write, in every table, so a mirror asks for "everything after revision N" and gets
 * each change once. No foreign keys: a shipment writes parents first in one transaction, and the store is a
 * replica of homes that already enforce them.
 */
import type { TeamMigration } from './team-migration.js';

export const sessionsAndStates: TeamMigration = {
  version: 1,
  name: 'sessions-and-states',
  sql: `
CREATE SEQUENCE team_revision;

CREATE TABLE sessions (
  id          TEXT PRIMARY KEY,
  title       TEXT NOT NULL,
  status      TEXT NOT NULL,
  operator    TEXT,
  model       TEXT,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL,
  flow_name   TEXT,
  revision    BIGINT NOT NULL
);
CREATE INDEX sessions_by_revision ON sessions (revision);

CREATE TABLE turns (
  id            TEXT PRIMARY KEY,
  session_id    TEXT NOT NULL,
  sequence      BIGINT NOT NULL,
  user_request  TEXT NOT NULL,
  status        TEXT NOT NULL,
  started_at    TEXT NOT NULL,
  ended_at      TEXT,
  compacted_at  TEXT,
  summary       TEXT,
  owner_pid     BIGINT,
  owner_host    TEXT,
  step_kind     TEXT,
  answer        TEXT,
  replay_key    TEXT,
  replay        TEXT,
  revision      BIGINT NOT NULL
);
CREATE INDEX turns_by_revision ON turns (revision);
CREATE INDEX turns_by_session ON turns (session_id);

CREATE TABLE messages (
  id             TEXT PRIMARY KEY,
  session_id     TEXT NOT NULL,
  turn_id        TEXT,
  sequence       BIGINT NOT NULL,
  role           TEXT NOT NULL,
  parts          TEXT NOT NULL,
  tool_calls     TEXT,
  tool_call_id   TEXT,
  tool_name      TEXT,
  is_error       BIGINT NOT NULL,
  is_compressed  BIGINT NOT NULL,
  created_at     TEXT NOT NULL,
  provider_data  TEXT,
  revision       BIGINT NOT NULL
);
CREATE INDEX messages_by_revision ON messages (revision);
CREATE INDEX messages_by_session ON messages (session_id);

CREATE TABLE images (
  id              TEXT PRIMARY KEY,
  session_id      TEXT NOT NULL,
  turn_id         TEXT,
  sha256          TEXT NOT NULL,
  phash           TEXT,
  hash_algorithm  TEXT,
  width           BIGINT NOT NULL,
  height          BIGINT NOT NULL,
  mime            TEXT NOT NULL,
  byte_size       BIGINT NOT NULL,
  zone            TEXT NOT NULL,
  is_error_frame  BIGINT NOT NULL,
  source          TEXT NOT NULL,
  display_id      TEXT,
  scale_factor    DOUBLE PRECISION,
  caption         TEXT,
  created_at      TEXT NOT NULL,
  offloaded_at    TEXT,
  purged_at       TEXT,
  revision        BIGINT NOT NULL
);
CREATE INDEX images_by_revision ON images (revision);
CREATE INDEX images_by_session ON images (session_id);

CREATE TABLE image_pins (
  image_id    TEXT PRIMARY KEY,
  session_id  TEXT NOT NULL,
  pinned_at   TEXT NOT NULL,
  revision    BIGINT NOT NULL
);
CREATE INDEX image_pins_by_revision ON image_pins (revision);
CREATE INDEX image_pins_by_session ON image_pins (session_id);

CREATE TABLE steps (
  id                        TEXT PRIMARY KEY,
  session_id                TEXT NOT NULL,
  turn_id                   TEXT NOT NULL,
  sequence                  BIGINT NOT NULL,
  action                    TEXT NOT NULL,
  thought                   TEXT,
  screenshot_image_id       TEXT,
  dedup_of_image_id         TEXT,
  result                    TEXT,
  error                     TEXT,
  latency_ms                BIGINT,
  input_tokens              BIGINT,
  output_tokens             BIGINT,
  token_report              TEXT,
  created_at                TEXT NOT NULL,
  screenshot_view           TEXT,
  cached_input_tokens       BIGINT,
  cache_write_input_tokens  BIGINT,
  cost_dollars              DOUBLE PRECISION,
  revision                  BIGINT NOT NULL
);
CREATE INDEX steps_by_revision ON steps (revision);
CREATE INDEX steps_by_session ON steps (session_id);

CREATE TABLE search_reports (
  id           TEXT PRIMARY KEY,
  session_id   TEXT NOT NULL,
  turn_id      TEXT,
  question     TEXT NOT NULL,
  queries      TEXT NOT NULL,
  sources      TEXT NOT NULL,
  answer       TEXT NOT NULL,
  confidence   DOUBLE PRECISION,
  iterations   BIGINT NOT NULL,
  duration_ms  BIGINT,
  created_at   TEXT NOT NULL,
  revision     BIGINT NOT NULL
);
CREATE INDEX search_reports_by_revision ON search_reports (revision);
CREATE INDEX search_reports_by_session ON search_reports (session_id);

CREATE TABLE injections (
  id              TEXT PRIMARY KEY,
  session_id      TEXT NOT NULL,
  turn_id         TEXT,
  type            TEXT NOT NULL,
  content_length  BIGINT NOT NULL,
  created_at      TEXT NOT NULL,
  revision        BIGINT NOT NULL
);
CREATE INDEX injections_by_revision ON injections (revision);
CREATE INDEX injections_by_session ON injections (session_id);

CREATE TABLE team_session_states (
  session_id   TEXT PRIMARY KEY,
  state        TEXT NOT NULL CHECK (state IN ('live', 'complete', 'lost')),
  worker_host  TEXT,
  worker_pid   BIGINT,
  job_id       TEXT,
  detail       TEXT,
  updated_at   TEXT NOT NULL,
  revision     BIGINT NOT NULL
);
CREATE INDEX team_session_states_by_revision ON team_session_states (revision);
`,
};
