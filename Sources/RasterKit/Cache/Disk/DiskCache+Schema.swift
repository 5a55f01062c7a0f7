import Foundation
internal import GRDB
internal import GRDBSQLite

/// The store's tables, their migrations, and how an existing file is told apart from a store
/// this build can use.
enum DiskCacheSchema {
    /// `PRAGMA application_id` of RasterKit stores ("RKDC"): a database without it that has
    /// tables of its own belongs to someone else.
    static let applicationID: Int32 = 0x524B_4443

    /// Every schema version, oldest first. Never edit a shipped migration: add one.
    static let migrator: DatabaseMigrator = {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("v1") { db in
            // `id` is the digest's first 64 bits, so a lookup is one seek in the table itself
            // rather than one in an index and another in the table; `digest` tells apart the
            // (astronomically rare) digests that share them, and such a pair simply evict each
            // other. The PNG goes last, so metadata scans do not read the blobs.
            try db.execute(sql: """
                CREATE TABLE entries (
                    id INTEGER PRIMARY KEY,
                    digest BLOB NOT NULL CHECK (length(digest) = 16),
                    type_name TEXT NOT NULL,
                    render_version INTEGER NOT NULL,
                    key_description TEXT NOT NULL,
                    pixel_width INTEGER NOT NULL,
                    pixel_height INTEGER NOT NULL,
                    scale REAL NOT NULL,
                    cap_top REAL, cap_left REAL, cap_bottom REAL, cap_right REAL,
                    byte_size INTEGER NOT NULL,
                    created_at REAL NOT NULL,
                    last_access REAL NOT NULL,
                    expires_at REAL NOT NULL,
                    children TEXT,
                    png BLOB NOT NULL
                );
                CREATE INDEX entries_by_type ON entries (type_name, render_version);
                CREATE INDEX entries_by_access ON entries (last_access, byte_size);
                CREATE INDEX entries_by_expiry ON entries (expires_at);
                CREATE INDEX entries_by_creation ON entries (created_at);
                PRAGMA application_id = \(applicationID);
                """)
        }
        migrator.registerMigration("v2-checksum") { db in
            // A hash of (digest ‖ PNG) per entry (see `DiskCacheChecksum`): libpng silently drops
            // a text chunk whose CRC is wrong, so a damaged scale or cap-insets chunk would decode
            // as a render without them, and a blob moved to another row would decode fine.
            // Entries written before it have NULL and are drawn again on their next lookup.
            try db.execute(sql: "ALTER TABLE entries ADD COLUMN checksum INTEGER")
        }
        migrator.registerMigration("v3-encoded-outputs") { db in
            // What a batch writes to its files, kept so that a run into a fresh folder copies
            // bytes instead of decoding and encoding every render again (see `DiskCache+EncodedOutputs`).
            // `png_encoding` names the encoder that made an entry's own PNG when a batch wrote
            // those very bytes to a file (NULL: the store's fast encoding, which no file has);
            // `encoded_outputs` holds the files that are not the render's PNG (nine-patches),
            // one per entry and encoding, and goes with its entry.
            try db.execute(sql: """
                ALTER TABLE entries ADD COLUMN png_encoding TEXT;
                CREATE TABLE encoded_outputs (
                    entry_id INTEGER NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
                    encoding TEXT NOT NULL,
                    checksum INTEGER NOT NULL,
                    bytes BLOB NOT NULL,
                    PRIMARY KEY (entry_id, encoding)
                );
                """)
        }
        migrator.registerMigration("v4-run-records") { db in
            // What a whole batch wrote, by the identity of the run (its program, options, manifest
            // and inputs, by content): a run into a fresh folder then copies every output's bytes
            // without loading its manifest (see `DiskCache+RunRecords`). `id` is the identity's
            // first 64 bits, like `entries.id`.
            try db.execute(sql: """
                CREATE TABLE run_records (
                    id INTEGER PRIMARY KEY,
                    digest BLOB NOT NULL CHECK (length(digest) = 16),
                    checksum INTEGER NOT NULL,
                    last_access REAL NOT NULL,
                    body BLOB NOT NULL
                );
                """)
        }
        migrator.registerMigration("v5-access-times") { db in
            // When each entry was last served, beside it rather than in its row: a touch rewrote
            // the whole row (its PNG included), and a warm run on a restored store touches every
            // entry it serves, so its first run copied every page of the table into the WAL and
            // back. These rows are 16 bytes. An entry's last access is the later of its own
            // `last_access` (set when it is written) and its row here (see `lastAccessSQL`); the
            // trigger removes that row with the entry.
            try db.execute(sql: """
                CREATE TABLE access_times (
                    id INTEGER PRIMARY KEY,
                    last_access REAL NOT NULL
                );
                CREATE TRIGGER entries_forget_access_time AFTER DELETE ON entries BEGIN
                    DELETE FROM access_times WHERE id = old.id;
                END;
                """)
        }
        return migrator
    }()

    /// Every migration's identifier, in the order they run.
    static var migrationOrder: [String] { migrator.migrations }

    /// An `entries` row's last access, in a statement over `entries`: the later of its own
    /// column and its touch in `access_times`.
    static let lastAccessSQL =
        "max(entries.last_access, coalesce((SELECT a.last_access FROM access_times a WHERE a.id = entries.id), 0))"

    /// One entry of `sqlite_master`: a table, index, trigger or view, with the SQL that made it
    /// (empty for SQLite's own indexes).
    struct SchemaEntry: Hashable {
        var type: String
        var name: String
        var table: String
        var sql: String
    }

    /// Every entry of a database's schema. Reading it evaluates nothing the schema defines.
    static let schemaSQL = "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master"

    /// `entries` without the statistics tables SQLite makes itself (`ANALYZE`, `PRAGMA
    /// optimize`), which hold numbers, never SQL that runs.
    static func ownSchema(_ entries: some Sequence<SchemaEntry>) -> Set<SchemaEntry> {
        Set(entries.filter { !($0.type == "table" && $0.name.hasPrefix("sqlite_stat")) })
    }

    /// The schema a new store has after the migrations up to `last`, or, for nil, the table GRDB
    /// records them in and nothing else; made once per process by migrating an empty database
    /// in memory, so there is no second description of the schema to keep in step.
    static func referenceSchema(upTo last: String?) throws -> Set<SchemaEntry> {
        let name = last ?? ""
        if let known = referenceSchemas.withLock({ $0[name] }) { return known }
        let reference = try DatabaseQueue()
        try migrator.migrate(reference, upTo: last ?? migrationOrder[0])
        var schema = try reference.read { db in try self.schema(db) }
        if last == nil { schema = schema.filter { $0.table == migrationsTable } }
        referenceSchemas.withLock { $0[name] = schema }
        return schema
    }

    private static let referenceSchemas = Lock<[String: Set<SchemaEntry>]>([:])

    /// GRDB's table of applied migrations.
    static let migrationsTable = "grdb_migrations"

    /// Why an existing file cannot be used as it is.
    enum Damage: Error, CustomStringConvertible {
        /// SQLite cannot read it: not a database, truncated, or (on import) failing `integrity_check`.
        case corrupt(String)
        /// A database with tables that are not a RasterKit store's.
        case foreign(String)
        /// A RasterKit store migrated by a newer build.
        case newer(unknownMigrations: [String])

        /// Whether the file is someone else's, which is never moved aside.
        var isForeign: Bool {
            if case .foreign = self { true } else { false }
        }

        var description: String {
            switch self {
            case .corrupt(let reason): "the file is damaged (\(reason))"
            case .foreign(let reason): "the file is another program's database (\(reason))"
            case .newer(let migrations): "the store was made by a newer RasterKit (schema \(migrations.sorted().joined(separator: ", ")))"
            }
        }
    }

    /// Throws ``Damage`` unless the database is empty or a store this build can migrate.
    ///
    /// This reads the header and the schema, never the whole file: it runs on every open (each
    /// `rasterkit` process, each test), and `PRAGMA quick_check` reads every page — 4 ms for a
    /// store of 2 MB, and for the stores CI jobs restore (hundreds of MB, often not in the page
    /// cache yet) seconds per run, more than the whole batch. What the open still catches:
    /// a garbled header (SQLite answers `SQLITE_NOTADB`) and a truncated file (SQLite compares
    /// the page count the header records with the file's size when it first reads it, and
    /// answers `SQLITE_CORRUPT`), both moved aside by `DiskCacheStore.openRecovering`. Damage
    /// inside the file is found where it matters: each entry's checksum (the entry is drawn
    /// again), and SQLite's own checks on the pages a statement reads (a miss, logged). An import
    /// reads every row, so it checks the whole file first (`PRAGMA integrity_check`, in
    /// `DiskCacheImportSource`).
    /// Returns the migrations the store records.
    @discardableResult
    static func inspect(_ db: Database) throws -> Set<String> {
        let schema = try schema(db)
        try checkMigrationsTable(in: schema)
        let applied = hasMigrationsTable(schema) ? Set(try String.fetchAll(db, sql: appliedMigrationsSQL)) : []
        try check(Layout(applicationID: try Int32.fetchOne(db, sql: "PRAGMA application_id") ?? 0, schema: schema,
                         appliedMigrations: applied))
        return applied
    }

    /// `db`'s schema (see ``ownSchema(_:)``).
    static func schema(_ db: Database) throws -> Set<SchemaEntry> {
        ownSchema(try Row.fetchAll(db, sql: schemaSQL).map { SchemaEntry(type: $0[0], name: $0[1], table: $0[2], sql: $0[3]) })
    }

    /// The migrations a store records.
    static let appliedMigrationsSQL = "SELECT identifier FROM grdb_migrations"

    /// Whether `schema` has GRDB's table of migrations.
    static func hasMigrationsTable(_ schema: Set<SchemaEntry>) -> Bool {
        schema.contains { $0.type == "table" && $0.name == migrationsTable }
    }

    /// Throws ``Damage/foreign(_:)`` when `schema` has a table of migrations that is not GRDB's
    /// own, before a row of it is read: a column of it could be generated by any expression.
    static func checkMigrationsTable(in schema: Set<SchemaEntry>) throws {
        let own = try referenceSchema(upTo: nil)
        let found = schema.filter { $0.name == migrationsTable || $0.table == migrationsTable }
        guard found.isEmpty || found == own else { throw Damage.foreign("its \(migrationsTable) table is not GRDB's") }
    }

    /// What ``check(_:)`` looks at in a database.
    struct Layout {
        /// `PRAGMA application_id`.
        var applicationID: Int32
        /// Every entry of `sqlite_master`.
        var schema: Set<SchemaEntry>
        /// The migrations `grdb_migrations` records (none without that table).
        var appliedMigrations: Set<String>

        /// Its tables, SQLite's own left out.
        var tables: [String] {
            schema.filter { $0.type == "table" && !$0.name.hasPrefix("sqlite_") }.map(\.name)
        }
    }

    /// Throws ``Damage`` unless a database laid out as `layout` is empty or a store this build
    /// can migrate; returns whether every migration this build knows has been applied, so
    /// there is nothing to migrate.
    ///
    /// Its schema must be exactly what the migrations it records make: a store is a file
    /// anyone may hand over (a CI cache restored from another branch), and SQLite evaluates what
    /// a schema defines — a trigger on every insert, a generated column or a default of
    /// `zeroblob(…)`, an index on an expression — whenever the store is written or read. A store
    /// that differs is treated as damaged: moved aside, never used.
    @discardableResult
    static func check(_ layout: Layout) throws -> Bool {
        let applied = layout.appliedMigrations
        guard layout.applicationID == applicationID else {
            if let foreign = foreignness(applicationID: layout.applicationID, tables: layout.tables,
                                         migrationsApplied: applied.count) {
                throw Damage.foreign(foreign)
            }
            // Empty, or with GRDB's table only (another process is creating the store).
            try checkExact(layout.schema, expected: layout.schema.isEmpty ? [] : referenceSchema(upTo: nil))
            return false
        }
        let unknown = applied.subtracting(migrator.migrations)
        guard unknown.isEmpty else { throw Damage.newer(unknownMigrations: Array(unknown)) }
        // The migrations run in order, so those applied are the first few.
        guard let last = migrationOrder.last(where: applied.contains),
              applied == Set(migrationOrder.prefix { $0 != last } + [last]) else {
            throw Damage.corrupt("its migrations (\(applied.sorted().joined(separator: ", "))) are not a store's")
        }
        try checkExact(layout.schema, expected: referenceSchema(upTo: last))
        return last == migrationOrder.last
    }

    /// Throws ``Damage/corrupt(_:)`` naming what differs unless `schema` is `expected`.
    private static func checkExact(_ schema: Set<SchemaEntry>, expected: Set<SchemaEntry>) throws {
        guard schema != expected else { return }
        let extra = schema.subtracting(expected).map { "\($0.type) \($0.name)" }.sorted()
        let missing = expected.subtracting(schema).map { "\($0.type) \($0.name)" }.sorted()
        throw Damage.corrupt("its schema is not a store's (its own or changed: \(extra.joined(separator: ", ")); "
            + "missing: \(missing.joined(separator: ", ")))")
    }

    /// Why a database without RasterKit's application id is someone else's, or nil when it is
    /// empty and may become a store. GRDB creates its migrations table just before the first
    /// migration's transaction, so a store another process is creating right now may show it,
    /// empty, and nothing else.
    static func foreignness(applicationID identifier: Int32, tables: [String], migrationsApplied: Int) -> String? {
        guard identifier != 0 || tables.contains(where: { $0 != "grdb_migrations" }) || migrationsApplied > 0 else {
            return nil
        }
        return "application id \(identifier), tables \(tables.sorted().joined(separator: ", "))"
    }

    /// Applies missing migrations. Processes creating one store at once may each try the same
    /// migration: the migrator learns which are applied before it takes the write lock, so a
    /// loser's fails (a table or column that already exists) and rolls back. It tries again,
    /// for up to `patience` seconds, until the migrations are all there, whoever applied them.
    /// Anything but such a clash or a lock (a damaged or full file) fails at once.
    static func migrate(_ writer: some DatabaseWriter, patience: TimeInterval) throws {
        let isClash = { (error: any Error) in
            (error as? DatabaseError).map { [SQLITE_ERROR, SQLITE_BUSY, SQLITE_LOCKED].contains($0.resultCode.rawValue) } ?? false
        }
        try DiskCacheContention.retrying(for: patience, while: isClash) {
            do {
                try migrator.migrate(writer)
            } catch {
                if try writer.read({ try migrator.hasCompletedMigrations($0) }) { return }
                throw error
            }
        }
    }
}
