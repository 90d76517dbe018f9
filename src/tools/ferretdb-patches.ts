/**
 * Fixes applied to FerretDB v1.24.2 before it is built (docs/foundation.md, "FerretDB patches").
 * None changes which documents a command matches or what it writes: FerretDB's handlers apply the
 * whole filter again to every row a backend query returns, so a narrower backend query only has to
 * return a superset. They change how many rows SQLite reads, and when a connection is given back.
 */
import type { SourcePatch } from './tool-versions';

/**
 * Narrows a backend query by what the filter pins down at its top level, whatever else it says:
 * - `_id: value` or `_id: {$in: [values]}` (strings or ObjectIDs): by the unique `_id` index;
 * - `field: "text"` or `field: {$in: ["text", ...]}` (plain field names, string values): a row is
 *   kept when the field's value is one of the strings, or is an array (an array field matches a
 *   string it contains, which SQL cannot cheaply tell). SQLite then reads each row's field with its
 *   own JSON code instead of FerretDB decoding every document.
 * Upstream only narrowed a filter that was exactly `{_id: value}`, so `{_id: h, applied_seq: {$lt: n}}`,
 * `{_id: {$in: hashes}}` or `{market_key: k, status: ...}` read and decoded the whole collection.
 */
const ID_PUSHDOWN_GO = `// Added by predex (src/tools/ferretdb-patches.ts); not part of upstream FerretDB.

package sqlite

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/FerretDB/FerretDB/internal/backends/sqlite/metadata"
	"github.com/FerretDB/FerretDB/internal/handler/sjson"
	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// maxIDPushdown bounds each IN list (SQLite allows 32766 bound variables).
const maxIDPushdown = 1000

// plainField is a top-level field name that needs no quoting in a JSON path.
var plainField = regexp.MustCompile(\`^[A-Za-z_][A-Za-z0-9_]*$\`)

// idPushdown returns a WHERE clause that keeps every row the filter can match,
// or ok=false when the filter pins nothing down (see src/tools/ferretdb-patches.ts).
func idPushdown(filter *types.Document) (where string, args []any, ok bool) {
	if filter == nil {
		return "", nil, false
	}

	var conds []string

	if v, err := filter.Get("_id"); err == nil {
		if values, ok := pinnedValues(v, true); ok {
			conds = append(conds, fmt.Sprintf(\`%s IN (%s)\`, metadata.IDColumn, marks(len(values))))
			for _, e := range values {
				args = append(args, string(must.NotFail(sjson.MarshalSingleValue(e))))
			}
		}
	}

	// With a repeated key the filter's meaning is the server's to decide: pin down by _id only.
	if _, dup := filter.FindDuplicateKey(); !dup {
		keys, values := filter.Keys(), filter.Values()
		for i, key := range keys {
			if key == "_id" || !plainField.MatchString(key) {
				continue
			}

			pinned, ok := pinnedValues(values[i], false)
			if !ok {
				continue
			}

			conds = append(conds, fmt.Sprintf(
				\`(%s->>'$.%s' IN (%s) OR json_type(%s, '$.%s') = 'array')\`,
				metadata.DefaultColumn, key, marks(len(pinned)), metadata.DefaultColumn, key,
			))
			for _, e := range pinned {
				args = append(args, e.(string))
			}
		}
	}

	if len(conds) == 0 {
		return "", nil, false
	}

	return " WHERE " + strings.Join(conds, " AND "), args, true
}

// pinnedValues returns the values v allows: v itself, or the elements of {$in: [...]};
// strings only, or strings and ObjectIDs when objectIDs is set.
func pinnedValues(v any, objectIDs bool) ([]any, bool) {
	allowed := func(e any) bool {
		switch e.(type) {
		case string:
			return true
		case types.ObjectID:
			return objectIDs
		}
		return false
	}

	if allowed(v) {
		return []any{v}, true
	}

	doc, isDoc := v.(*types.Document)
	if !isDoc || doc.Len() != 1 {
		return nil, false
	}

	in, err := doc.Get("$in")
	if err != nil {
		return nil, false
	}

	arr, isArray := in.(*types.Array)
	if !isArray || arr.Len() == 0 || arr.Len() > maxIDPushdown {
		return nil, false
	}

	values := make([]any, 0, arr.Len())
	for i := 0; i < arr.Len(); i++ {
		e := must.NotFail(arr.Get(i))
		if !allowed(e) {
			return nil, false
		}
		values = append(values, e)
	}

	return values, true
}

func marks(n int) string {
	return strings.TrimSuffix(strings.Repeat("?, ", n), ", ")
}
`;

/** Upstream's narrowing in collection.Query and collection.Explain (the same block twice). */
const upstreamNarrowing = (extra: string) => `	if params.Filter.Len() == 1 {
		v, _ := params.Filter.Get("_id")
		switch v.(type) {
		case string, types.ObjectID:
${extra}			whereClause = fmt.Sprintf(\` WHERE %s = ?\`, metadata.IDColumn)
			args = []any{string(must.NotFail(sjson.MarshalSingleValue(v)))}
		}
	}`;

/**
 * One SQLite transaction per update command instead of one per changed document, when no
 * statement can see another's change (each pins its own documents by _id, no upserts). A step's
 * bulk update of its orders was one transaction per order, and every write transaction on the
 * database file takes the one SQLite write lock in turn. See `updateBatch` below.
 */
const UPDATE_BATCH_GO = `// Added by predex (src/tools/ferretdb-patches.ts); not part of upstream FerretDB.

package handler

import (
	"context"
	"fmt"

	"github.com/FerretDB/FerretDB/internal/backends"
	"github.com/FerretDB/FerretDB/internal/handler/common"
	"github.com/FerretDB/FerretDB/internal/types"
)

// updateBatch writes the documents an update command changes in one backend call (one SQLite
// transaction) at the end of the command, instead of one transaction per changed document. It
// is on only when no statement can see what another one changed: every statement pins its
// documents by _id (a value or an $in list of strings or ObjectIDs), no _id is pinned twice, and
// none upserts. Then every statement reads the documents as they were before the command, as it
// would have anyway.
type updateBatch struct {
	enabled bool
	c       *batchedCollection
}

// batchedCollection keeps the documents UpdateAll is given; everything else goes to the backend.
type batchedCollection struct {
	backends.Collection
	docs []*types.Document
}

// UpdateAll implements backends.Collection by keeping the documents for the batch's flush.
func (b *batchedCollection) UpdateAll(_ context.Context, params *backends.UpdateAllParams) (*backends.UpdateAllResult, error) {
	b.docs = append(b.docs, params.Docs...)
	return &backends.UpdateAllResult{Updated: int32(len(params.Docs))}, nil
}

func newUpdateBatch(updates []common.Update) *updateBatch {
	return &updateBatch{enabled: disjointIDUpdates(updates)}
}

// wrap returns the collection statements should update through.
func (b *updateBatch) wrap(c backends.Collection) backends.Collection {
	if !b.enabled {
		return c
	}
	if b.c == nil {
		b.c = &batchedCollection{Collection: c}
	}
	return b.c
}

// flush writes the kept documents in one backend call.
func (b *updateBatch) flush(ctx context.Context) error {
	if b.c == nil || len(b.c.docs) == 0 {
		return nil
	}
	docs := b.c.docs
	b.c.docs = nil
	_, err := b.c.Collection.UpdateAll(ctx, &backends.UpdateAllParams{Docs: docs})
	return err
}

func disjointIDUpdates(updates []common.Update) bool {
	seen := map[string]struct{}{}
	add := func(v any) bool {
		var key string
		switch v := v.(type) {
		case string:
			key = "s:" + v
		case types.ObjectID:
			key = fmt.Sprintf("o:%x", [12]byte(v))
		default:
			return false
		}
		if _, dup := seen[key]; dup {
			return false
		}
		seen[key] = struct{}{}
		return true
	}
	for _, u := range updates {
		if u.Upsert || u.Filter == nil {
			return false
		}
		id, err := u.Filter.Get("_id")
		if err != nil {
			return false
		}
		if doc, ok := id.(*types.Document); ok {
			if doc.Len() != 1 {
				return false
			}
			list, err := doc.Get("$in")
			if err != nil {
				return false
			}
			arr, ok := list.(*types.Array)
			if !ok {
				return false
			}
			for i := 0; i < arr.Len(); i++ {
				if !add(elementOrNil(arr.Get(i))) {
					return false
				}
			}
			continue
		}
		if !add(id) {
			return false
		}
	}
	return true
}

func elementOrNil(v any, err error) any {
	if err != nil {
		return nil
	}
	return v
}
`;

/**
 * Decodes stored documents without a json.Decoder per value. Upstream's sjson.Unmarshal decoded
 * each document three times over (into a map of raw values, its schema, then every value with a
 * fresh json.Decoder); a pprof of FerretDB under the bench put 37% of its CPU there. The plain
 * forms sjson.Marshal writes (compact objects, strings without escapes, integers, dates, bools)
 * are read directly and schemas are cached by their text; anything else takes the upstream path,
 * which also produces every error. Upstream's own sjson tests pass on the patched package.
 */
const FAST_DECODE_GO = `// Added by predex (src/tools/ferretdb-patches.ts); not part of upstream FerretDB.

package sjson

import (
	"bytes"
	"encoding/json"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/FerretDB/FerretDB/internal/types"
	"github.com/FerretDB/FerretDB/internal/util/must"
)

// The decoders below take the forms this package's own Marshal writes (compact JSON, plain
// strings, integer numbers) without a json.Decoder per value; anything else (escapes, exponents,
// whitespace, doubles, binary, regexes, timestamps) returns ok=false and goes the upstream way,
// which also produces every error.

// fastUnmarshal is Unmarshal for a well-formed top-level document.
func fastUnmarshal(data []byte) (*types.Document, bool) {
	fields, ok := splitObject(data)
	if !ok {
		return nil, false
	}

	raw, ok := fields["$s"]
	if !ok {
		return nil, false
	}

	sch, ok := cachedSchema(raw)
	if !ok || len(sch.Keys) != len(fields)-1 {
		return nil, false
	}

	d := must.NotFail(types.NewDocument())

	for _, key := range sch.Keys {
		b, ok := fields[key]
		if !ok {
			return nil, false
		}

		v, err := unmarshalSingleValue(b, sch.Properties[key])
		if err != nil {
			return nil, false
		}

		d.Set(key, v)
	}

	return d, true
}

// fastSingleValue decodes a plain string, int, long, date or bool.
func fastSingleValue(data []byte, sch *elem) (any, bool) {
	switch sch.Type {
	case elemTypeString:
		return plainString(data)
	case elemTypeInt:
		if n, ok := plainInt(data, 32); ok {
			return int32(n), true
		}
	case elemTypeLong:
		if n, ok := plainInt(data, 64); ok {
			return n, true
		}
	case elemTypeDate:
		if n, ok := plainInt(data, 64); ok {
			return time.UnixMilli(n), true
		}
	case elemTypeBool:
		switch string(data) {
		case "true":
			return true, true
		case "false":
			return false, true
		}
	}

	return nil, false
}

// plainString decodes a JSON string without escapes or control characters, in valid UTF-8.
func plainString(data []byte) (any, bool) {
	n := len(data)
	if n < 2 || data[0] != '"' || data[n-1] != '"' {
		return nil, false
	}

	inner := data[1 : n-1]
	for _, c := range inner {
		if c == '"' || c == '\\\\' || c < 0x20 {
			return nil, false
		}
	}

	if !utf8.Valid(inner) {
		return nil, false
	}

	return string(inner), true
}

// plainInt decodes a JSON integer (optional minus, no leading zeros) that fits in bits.
func plainInt(data []byte, bits int) (int64, bool) {
	digits := data
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}

	if len(digits) == 0 || (digits[0] == '0' && len(digits) > 1) {
		return 0, false
	}

	for _, c := range digits {
		if c < '0' || c > '9' {
			return 0, false
		}
	}

	n, err := strconv.ParseInt(string(data), 10, bits)
	if err != nil {
		return 0, false
	}

	return n, true
}

// splitObject returns the raw values of a compact JSON object's fields, by key (the last of a
// repeated key, as encoding/json does). Values are checked later by their own decoders.
func splitObject(data []byte) (map[string]json.RawMessage, bool) {
	n := len(data)
	if n < 2 || data[0] != '{' || data[n-1] != '}' {
		return nil, false
	}

	fields := make(map[string]json.RawMessage, 40)
	i := 1

	if data[i] == '}' {
		return fields, i == n-1
	}

	for {
		end, ok := skipString(data, i)
		if !ok {
			return nil, false
		}

		key, ok := plainString(data[i:end])
		if !ok || end >= n || data[end] != ':' {
			return nil, false
		}

		i = end + 1

		end, ok = skipValue(data, i)
		if !ok || end >= n {
			return nil, false
		}

		fields[key.(string)] = json.RawMessage(data[i:end])

		switch data[end] {
		case ',':
			i = end + 1
		case '}':
			return fields, end == n-1
		default:
			return nil, false
		}
	}
}

// skipString returns the index after the JSON string starting at i.
func skipString(data []byte, i int) (int, bool) {
	if i >= len(data) || data[i] != '"' {
		return 0, false
	}

	for j := i + 1; j < len(data); j++ {
		switch data[j] {
		case '\\\\':
			j++
		case '"':
			return j + 1, true
		}
	}

	return 0, false
}

// skipValue returns the index after the JSON value starting at i.
func skipValue(data []byte, i int) (int, bool) {
	if i >= len(data) {
		return 0, false
	}

	switch data[i] {
	case '"':
		return skipString(data, i)
	case '{', '[':
		depth := 0

		for j := i; j < len(data); j++ {
			switch data[j] {
			case '"':
				end, ok := skipString(data, j)
				if !ok {
					return 0, false
				}

				j = end - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, true
				}
			}
		}

		return 0, false
	default:
		j := i
		for j < len(data) && data[j] != ',' && data[j] != '}' && data[j] != ']' {
			j++
		}

		return j, j > i
	}
}

// schemas caches decoded schemas by their JSON: the documents of a collection mostly share a few
// (read-only once decoded). Emptied when it grows past maxSchemas.
var schemas struct {
	sync.RWMutex
	m map[string]*schema
}

const maxSchemas = 4096

func cachedSchema(raw []byte) (*schema, bool) {
	schemas.RLock()
	sch, ok := schemas.m[string(raw)]
	schemas.RUnlock()

	if ok {
		return sch, true
	}

	sch = new(schema)
	r := bytes.NewReader(raw)
	dec := json.NewDecoder(r)
	dec.DisallowUnknownFields()

	if err := dec.Decode(sch); err != nil {
		return nil, false
	}

	if err := checkConsumed(dec, r); err != nil {
		return nil, false
	}

	schemas.Lock()
	if schemas.m == nil || len(schemas.m) >= maxSchemas {
		schemas.m = make(map[string]*schema, 64)
	}
	schemas.m[string(raw)] = sch
	schemas.Unlock()

	return sch, true
}
`;

export const FERRETDB_GENERATED_FILES: Record<string, string> = {
  'internal/backends/sqlite/id_pushdown.go': ID_PUSHDOWN_GO,
  'internal/handler/update_batch.go': UPDATE_BATCH_GO,
  'internal/handler/sjson/fast_decode.go': FAST_DECODE_GO,
};

/** The per-statement part of the update command's loop, upstream. */
const UPDATE_STATEMENT = (release: string, wrap = 'c') => `		closer := iterator.NewMultiCloser()
${release ? '' : '		defer closer.Close()\n'}
		closer.Add(res.Iter)

		iter := common.FilterIterator(res.Iter, closer, u.Filter)

		if !u.Multi {
			iter = common.LimitIterator(iter, closer, 1)
		}

		result, err := common.UpdateDocument(ctx, ${wrap}, "update", iter, &u)
${release}		if err != nil {`;

const RELEASE_STATEMENT = `
		// Patched (predex): release this statement's query, and the pooled SQLite connection it
		// holds, now rather than when the whole command returns.
		closer.Close()

`;

export const FERRETDB_PATCHES: SourcePatch[] = [
  {
    file: 'internal/backends/sqlite/metadata/metadata.go',
    find: `IDColumn = DefaultColumn + "->'$._id'"`,
    replace: `IDColumn = DefaultColumn + "->'_id'"`,
    // SQLite uses an expression index only when a query spells the expression the same way. The
    // unique _id index is on \`_ferretdb_sjson->"_id"\`, lookups said \`->'$._id'\` (the same value),
    // so every _id update, delete and lookup scanned the table: an updateOne took ~3 ms at 100
    // documents and ~67 ms at 20,000 (measured here).
    why: 'the SQLite backend never used its _id index',
  },
  {
    file: 'internal/backends/sqlite/collection.go',
    find: upstreamNarrowing(''),
    replace: `	if w, a, ok := idPushdown(params.Filter); ok {
		whereClause, args = w, a
	}`,
    why: 'queries narrowed by _id only when the filter was exactly {_id: value}',
  },
  {
    file: 'internal/backends/sqlite/collection.go',
    find: upstreamNarrowing('			filterPushdown = true\n'),
    replace: `	if w, a, ok := idPushdown(params.Filter); ok {
		filterPushdown, whereClause, args = true, w, a
	}`,
    why: 'explain reports the same narrowing as the query',
  },
  {
    file: 'internal/handler/msg_update.go',
    find: UPDATE_STATEMENT(''),
    replace: UPDATE_STATEMENT(RELEASE_STATEMENT),
    // Each statement's query stayed open (a deferred close inside the loop) until the command
    // returned: an update command (bulkWrite) of ~100 statements exhausted the 100-connection pool
    // and hung for good (measured here: 50 statements 33 ms, 100 never answered).
    why: 'a bulk update of ~100 statements hung the server',
  },
  {
    file: 'internal/handler/msg_update.go',
    find: UPDATE_STATEMENT(RELEASE_STATEMENT),
    replace: UPDATE_STATEMENT(RELEASE_STATEMENT, 'batch.wrap(c)'),
    why: 'every changed document was its own SQLite transaction',
  },
  {
    file: 'internal/handler/msg_update.go',
    find: `	for _, u := range params.Updates {
		c, err := db.Collection(params.Collection)`,
    replace: `	// Patched (predex): see update_batch.go. On an error return, what earlier statements changed is
	// still written, as upstream had written it statement by statement.
	batch := newUpdateBatch(params.Updates)
	defer func() { _ = batch.flush(ctx) }()

	for _, u := range params.Updates {
		c, err := db.Collection(params.Collection)`,
    why: 'every changed document was its own SQLite transaction',
  },
  {
    file: 'internal/handler/msg_update.go',
    find: `	return matched, modified, &upserted, nil
}`,
    replace: `	if err := batch.flush(ctx); err != nil {
		return 0, 0, nil, lazyerrors.Error(err)
	}

	return matched, modified, &upserted, nil
}`,
    why: 'every changed document was its own SQLite transaction',
  },
  {
    file: 'internal/handler/sjson/sjson.go',
    find: `func Unmarshal(data []byte) (*types.Document, error) {
	var v map[string]json.RawMessage`,
    replace: `func Unmarshal(data []byte) (*types.Document, error) {
	// Patched (predex): see fast_decode.go.
	if d, ok := fastUnmarshal(data); ok {
		return d, nil
	}

	var v map[string]json.RawMessage`,
    why: 'decoding stored documents was a third of FerretDB\'s CPU',
  },
  {
    file: 'internal/handler/sjson/sjson.go',
    find: `	if sch == nil {
		return nil, lazyerrors.Errorf("schema is not set")
	}

	var res sjsontype`,
    replace: `	if sch == nil {
		return nil, lazyerrors.Errorf("schema is not set")
	}

	// Patched (predex): see fast_decode.go.
	if v, ok := fastSingleValue(data, sch); ok {
		return v, nil
	}

	var res sjsontype`,
    why: 'decoding stored documents was a third of FerretDB\'s CPU',
  },
  // SQLite lets one transaction write to a database file at a time. A writer that finds the
  // lock taken is refused (SQLITE_BUSY) and its busy handler sleeps and retries, 1, 2, 5, 10, 15,
  // 20, 25 ms and so on: the lock comes free, nobody takes it until some sleeper wakes, and
  // concurrent writers saw waits of up to ~130 ms (the sum of the first sleeps) on a lock held
  // ~1 ms at a time. Writers of a file now queue on a Go mutex instead and take the lock the
  // moment it comes free (docs/benchmarks.md, "Numbers behind the design").
  {
    file: 'internal/util/fsql/db.go',
    find: `	"log/slog"
	"time"
`,
    replace: `	"log/slog"
	"sync"
	"time"
`,
    why: 'writers polled SQLite\'s write lock with sleeps instead of queueing for it',
  },
  {
    file: 'internal/util/fsql/db.go',
    find: `	token     *resource.Token
	BatchSize int
}`,
    replace: `	token     *resource.Token
	BatchSize int

	// Patched (predex): held by every write (a transaction, or a statement outside one), so the
	// writers of this database file queue here rather than in SQLite's sleeping busy handler.
	writes sync.Mutex
}`,
    why: 'writers polled SQLite\'s write lock with sleeps instead of queueing for it',
  },
  {
    file: 'internal/util/fsql/db.go',
    find: `func (db *DB) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	start := time.Now()
`,
    replace: `func (db *DB) ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error) {
	db.writes.Lock()
	defer db.writes.Unlock()

	start := time.Now()
`,
    why: 'writers polled SQLite\'s write lock with sleeps instead of queueing for it',
  },
  {
    file: 'internal/util/fsql/db.go',
    find: `func (db *DB) InTransaction(ctx context.Context, f func(*Tx) error) (err error) {
	var sqlTx *sql.Tx
`,
    replace: `func (db *DB) InTransaction(ctx context.Context, f func(*Tx) error) (err error) {
	db.writes.Lock()
	defer db.writes.Unlock()

	var sqlTx *sql.Tx
`,
    why: 'writers polled SQLite\'s write lock with sleeps instead of queueing for it',
  },
  // Every query iterator, transaction, cursor and row set was added to a pprof profile (a stack
  // walk: runtime.Callers) and given a finalizer that panics if it is never closed. In release
  // builds the finalizer only crashes the server on a leak; the walk and the finalizers cost
  // ~10% of FerretDB's CPU under the e2e bench (Track 7.7%, Untrack 2.1%, go tool pprof).
  debugBuildOnly('Track', 'leak tracking is a debug-build tool (see Untrack)'),
  debugBuildOnly('Untrack', 'Track does nothing outside debug builds'),
];

/** A patch that makes `resource.{func}` return at once unless FerretDB is a debug build. */
function debugBuildOnly(func: 'Track' | 'Untrack', note: string): SourcePatch {
  const head = `func ${func}(obj any, token *Token) {
	checkArgs(obj, token)
`;
  return {
    file: 'internal/util/resource/resource.go',
    find: head,
    replace: head.replace('\tcheckArgs', `\t// Patched (predex): ${note}.
	if !debugbuild.Enabled {
		return
	}

	checkArgs`),
    why: 'tracking every iterator\'s lifetime was a tenth of FerretDB\'s CPU',
  };
}
