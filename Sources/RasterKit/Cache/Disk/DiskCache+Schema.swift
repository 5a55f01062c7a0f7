import Foundation

/// The store's tables, their migrations, and how an existing file is told apart from a store
/// this build can use.
enum DiskCacheSchema {
    /// `PRAGMA application_id` of RasterKit stores ("RKDC"): a database without it that has
    /// tables of its own belongs to someone else.
    static let applicationID: Int32 = 0x524B_4443

    /// One schema version: its identifier, recorded in the migrations table once applied, and
    /// its SQL.
    struct Migration {
        var identifier: String
        var sql: String
    }

    /// Every schema version, oldest first. Never edit a shipped migration: add one.
    static let migrations: [Migration] = [
        // `id` is the digest's first 64 bits, so a lookup is one seek in the table itself
        // rather than one in an index and another in the table; `digest` tells apart the
        // (astronomically rare) digests that share them, and such a pair simply evict each
        // other. The PNG goes last, so metadata scans do not read the blobs.
        Migration(identifier: "v1", sql: """
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
            """),
        // A hash of (digest ‖ PNG) per entry (see `DiskCacheChecksum`): libpng silently drops
        // a text chunk whose CRC is wrong, so a damaged scale or cap-insets chunk would decode
        // as a render without them, and a blob moved to another row would decode fine.
        // Entries written before it have NULL and are drawn again on their next lookup.
        Migration(identifier: "v2-checksum", sql: "ALTER TABLE entries ADD COLUMN checksum INTEGER"),
        // What a batch writes to its files, kept so that a run into a fresh folder copies
        // bytes instead of decoding and encoding every render again (see `DiskCache+EncodedOutputs`).
        // `png_encoding` names the encoder that made an entry's own PNG when a batch wrote
        // those very bytes to a file (NULL: the store's fast encoding, which no file has);
        // `encoded_outputs` holds the files that are not the render's PNG (nine-patches),
        // one per entry and encoding, and goes with its entry.
        Migration(identifier: "v3-encoded-outputs", sql: """
            ALTER TABLE entries ADD COLUMN png_encoding TEXT;
            CREATE TABLE encoded_outputs (
                entry_id INTEGER NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
                encoding TEXT NOT NULL,
                checksum INTEGER NOT NULL,
                bytes BLOB NOT NULL,
                PRIMARY KEY (entry_id, encoding)
            );
            """),
        // What a whole batch wrote, by the identity of the run (its program, options, manifest
        // and inputs, by content): a run into a fresh folder then copies every output's bytes
        // without loading its manifest (see `DiskCache+RunRecords`). `id` is the identity's
        // first 64 bits, like `entries.id`.
        Migration(identifier: "v4-run-records", sql: """
            CREATE TABLE run_records (
                id INTEGER PRIMARY KEY,
                digest BLOB NOT NULL CHECK (length(digest) = 16),
                checksum INTEGER NOT NULL,
                last_access REAL NOT NULL,
                body BLOB NOT NULL
            );
            """),
        // When each entry was last served, beside it rather than in its row: a touch rewrote
        // the whole row (its PNG included), and a warm run on a restored store touches every
        // entry it serves, so its first run copied every page of the table into the WAL and
        // back. These rows are 16 bytes. An entry's last access is the later of its own
        // `last_access` (set when it is written) and its row here (see `lastAccessSQL`); the
        // trigger removes that row with the entry.
        Migration(identifier: "v5-access-times", sql: """
            CREATE TABLE access_times (
                id INTEGER PRIMARY KEY,
                last_access REAL NOT NULL
            );
            CREATE TRIGGER entries_forget_access_time AFTER DELETE ON entries BEGIN
                DELETE FROM access_times WHERE id = old.id;
            END;
            """),
    ]

    /// Every migration's identifier, in the order they run.
    static let migrationOrder = migrations.map(\.identifier)

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

    /// The schema a new store has after the migrations up to `last`, or, for nil, the table the
    /// migrations are recorded in and nothing else; made once per process by migrating an empty
    /// database in memory, so there is no second description of the schema to keep in step.
    static func referenceSchema(upTo last: String?) throws -> Set<SchemaEntry> {
        let name = last ?? ""
        if let known = referenceSchemas.withLock({ $0[name] }) { return known }
        let reference = try SQLiteConnection(":memory:", mode: .readWrite, busyTimeout: 0)
        try migrate(reference, upTo: last ?? migrationOrder[0])
        var schema = try self.schema(reference)
        if last == nil { schema = schema.filter { $0.table == migrationsTable } }
        referenceSchemas.withLock { $0[name] = schema }
        return schema
    }

    private static let referenceSchemas = Lock<[String: Set<SchemaEntry>]>([:])

    /// The table of applied migrations. Its name is GRDB's, whose migrator made the stores of
    /// earlier builds: they open as they are.
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
    /// Reads the application id, the schema and the migrations a database records, for
    /// ``check(_:)``.
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
    static func layout(of connection: SQLiteConnection) throws -> Layout {
        // One read transaction: one snapshot, even while another process migrates the file.
        try connection.transaction(immediate: false) {
            let identifier = Int32(truncatingIfNeeded: try connection.column("PRAGMA application_id").first?.int64 ?? 0)
            let schema = try schema(connection)
            // Checked before a row of it is read.
            try checkMigrationsTable(in: schema)
            let applied = hasMigrationsTable(schema) ? try connection.column(appliedMigrationsSQL).compactMap(\.string) : []
            return Layout(applicationID: identifier, schema: schema, appliedMigrations: Set(applied))
        }
    }

    /// The migrations a file to be imported records, once its schema is exactly what they make
    /// (see ``check(_:)``); throws ``Damage`` otherwise, and for a file with no migrations.
    static func check(fileOf connection: SQLiteConnection) throws -> Set<String> {
        let layout = try layout(of: connection)
        try check(layout)
        guard !layout.appliedMigrations.isEmpty else { throw Damage.foreign("it has no migrations") }
        return layout.appliedMigrations
    }

    /// The schema of `connection`'s database (see ``ownSchema(_:)``).
    static func schema(_ connection: SQLiteConnection) throws -> Set<SchemaEntry> {
        ownSchema(try connection.rows(schemaSQL).map { row in
            SchemaEntry(type: row[0].string ?? "", name: row[1].string ?? "", table: row[2].string ?? "",
                        sql: row[3].string ?? "")
        })
    }

    /// The migrations a store records.
    static let appliedMigrationsSQL = "SELECT identifier FROM grdb_migrations"

    /// Whether `schema` has the table of migrations.
    static func hasMigrationsTable(_ schema: Set<SchemaEntry>) -> Bool {
        schema.contains { $0.type == "table" && $0.name == migrationsTable }
    }

    /// Throws ``Damage/foreign(_:)`` when `schema` has a table of migrations that is not the one
    /// the migrations make, before a row of it is read: a column of it could be generated by any expression.
    static func checkMigrationsTable(in schema: Set<SchemaEntry>) throws {
        let own = try referenceSchema(upTo: nil)
        let found = schema.filter { $0.name == migrationsTable || $0.table == migrationsTable }
        guard found.isEmpty || found == own else { throw Damage.foreign("its \(migrationsTable) table is not a store's") }
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
            // Empty, or with the migrations table only (an earlier build, whose migrator created
            // it before its first migration's transaction, is creating the store).
            try checkExact(layout.schema, expected: layout.schema.isEmpty ? [] : referenceSchema(upTo: nil))
            return false
        }
        let unknown = applied.subtracting(migrationOrder)
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
    /// empty and may become a store. Earlier builds created the migrations table just before
    /// the first migration's transaction, so a store such a build is creating right now may
    /// show it, empty, and nothing else.
    static func foreignness(applicationID identifier: Int32, tables: [String], migrationsApplied: Int) -> String? {
        guard identifier != 0 || tables.contains(where: { $0 != "grdb_migrations" }) || migrationsApplied > 0 else {
            return nil
        }
        return "application id \(identifier), tables \(tables.sorted().joined(separator: ", "))"
    }

    /// Applies the migrations up to `last` (all of them for nil) that the database lacks, in one
    /// transaction that takes the write lock before it reads which are applied: processes
    /// opening one new store at once wait for each other, and the later ones find nothing to do.
    static func migrate(_ connection: SQLiteConnection, upTo last: String? = nil) throws {
        let wanted = last.flatMap { last in migrationOrder.firstIndex(of: last).map { migrations[...$0] } } ?? migrations[...]
        try connection.transaction(immediate: true) {
            try connection.execute("CREATE TABLE IF NOT EXISTS \(migrationsTable) (identifier TEXT NOT NULL PRIMARY KEY)")
            let applied = Set(try connection.column(appliedMigrationsSQL).compactMap(\.string))
            for migration in wanted where !applied.contains(migration.identifier) {
                try connection.execute(migration.sql)
                try connection.execute("INSERT INTO \(migrationsTable) (identifier) VALUES (?)", [.text(migration.identifier)])
            }
        }
    }
}
