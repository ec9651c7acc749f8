// The cellfs command line: parses the subcommands with CLI11 and hands each
// to its runner (mount_command, umount_command, sync_command, verify_command, cql_command,
// load_command, dump_command, stats_command).
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <string>

#include "tools/cellfs/cql_command.h"
#include "tools/cellfs/demo_command.h"
#include "tools/cellfs/dump_command.h"
#include "tools/cellfs/errors_command.h"
#include "tools/cellfs/load_command.h"
#include "tools/cellfs/mount_command.h"
#include "tools/cellfs/mount_options.h"
#include "tools/cellfs/snapshot_command.h"
#include "tools/cellfs/stats_command.h"
#include "tools/cellfs/status_command.h"
#include "tools/cellfs/store_argument.h"
#include "tools/cellfs/sync_command.h"
#include "tools/cellfs/umount_command.h"
#include "tools/cellfs/verify_command.h"

namespace {

using cellfs::tools::CqlArgs;
using cellfs::tools::DemoArgs;
using cellfs::tools::DumpArgs;
using cellfs::tools::ErrorsArgs;
using cellfs::tools::kStoreSpellingHelp;
using cellfs::tools::LoadArgs;
using cellfs::tools::MountArgs;
using cellfs::tools::SnapshotArgs;
using cellfs::tools::StatsArgs;
using cellfs::tools::StatusArgs;
using cellfs::tools::SyncArgs;
using cellfs::tools::UmountArgs;
using cellfs::tools::VerifyArgs;

// A DATADIR's rados spelling checked while parsing, so a bad one is a usage
// error (exit 2) before anything is made or forked.
const CLI::Validator kStoreSpelling(
    [](std::string& spelling) {
      cellfs::Status checked = cellfs::tools::CheckStoreSpelling(spelling);
      return checked.ok() ? std::string() : checked.message();
    },
    "", "STORE");

CLI::App* AddMount(CLI::App& app, MountArgs* args) {
  CLI::App* mount = app.add_subcommand("mount", "Serve the store in DATADIR at MOUNTPOINT");
  mount->add_flag("-f,--foreground", args->foreground,
                  "Stay in the foreground and log to stderr; Ctrl-C unmounts");
  mount->add_option("-o", args->options, "Mount options, comma-separated (see below)")
      ->type_name("OPTIONS")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  mount->add_option("DATADIR", args->data_dir, "The data directory (outside MOUNTPOINT)")
      ->required()
      ->check(kStoreSpelling);
  mount->add_option("MOUNTPOINT", args->mount_point, "An existing directory")->required();
  mount->footer("DATADIR is created (mode 0700) when missing and must not be inside MOUNTPOINT.\n" +
                std::string(kStoreSpellingHelp) +
                "\nThe command returns once the mount is live; the daemon then runs in the\n"
                "background, logging to syslog, until `cellfs umount MOUNTPOINT`.\n\n" +
                cellfs::tools::kMountOptionsHelp);
  return mount;
}

CLI::App* AddUmount(CLI::App& app, UmountArgs* args) {
  CLI::App* umount = app.add_subcommand("umount", "Unmount a cellfs mount");
  umount->footer(
      "Runs fusermount3 -u, then waits until the daemon has closed its store, so that\n"
      "the data directory can be mounted again at once.");
  umount->add_flag("--force", args->force,
                   "For a daemon that hangs or died: abort the FUSE connection, then detach "
                   "the mount (fusermount3 -u -z)");
  umount->add_option("MOUNTPOINT", args->mount_point, "Where it is mounted")->required();
  return umount;
}

CLI::App* AddSync(CLI::App& app, SyncArgs* args) {
  CLI::App* command =
      app.add_subcommand("sync", "Make every write acknowledged by a mount durable");
  command->add_option("MOUNTPOINT", args->mount_point, "A cellfs mount")->required();
  command->footer(
      "fsyncs MOUNTPOINT's root directory, so the daemon syncs its store: every write\n"
      "acknowledged so far survives an OS crash once this returns. sync(1) does not\n"
      "reach a FUSE daemon. Exits 1 with a message when MOUNTPOINT is not a cellfs\n"
      "mount, its daemon is gone, or the sync failed (e.g. ENOSPC after a full disk).");
  return command;
}

CLI::App* AddErrors(CLI::App& app, ErrorsArgs* args) {
  CLI::App* command =
      app.add_subcommand("errors", "Show a mount's latest refused requests and their reasons");
  command->add_option("MOUNTPOINT", args->mount_point, "A cellfs mount")->required();
  command->add_option("PATH", args->path, "Only refusals of this path or below it");
  command->footer(
      "Prints MOUNTPOINT/@errors: the latest refusals (up to 256), oldest first, one per\n"
      "line: time, request, path (from the mount), errno and the reason. The daemon's\n"
      "log has the same lines (stderr with -f, syslog otherwise).");
  return command;
}

CLI::App* AddVerify(CLI::App& app, VerifyArgs* args) {
  CLI::App* command =
      app.add_subcommand("verify", "Check that every entry of an unmounted store decodes");
  command->add_option("DATADIR", args->data_dir, "The store's data directory")
      ->required()
      ->check(kStoreSpelling);
  command->footer(
      "Reads the store in DATADIR once, read-only, and decodes every entry against the\n"
      "schema: row fragments and deletions, index and view entries, and the expiry index\n"
      "(each of whose entries must name a table). Prints the counts and each fault (a\n"
      "key or value that does not decode, data of an unknown table). Exits 0 when the\n"
      "store is sound, 1 when it has faults, 2 when it cannot be opened (a mounted store\n"
      "is refused: unmount it first) or read.\n" +
      std::string(kStoreSpellingHelp));
  return command;
}

// `cellfs snapshot list|restore|clear`; each action sets args->action.
CLI::App* AddSnapshot(CLI::App& app, SnapshotArgs* args) {
  CLI::App* command = app.add_subcommand(
      "snapshot", "List, restore or clear the tables DROP and TRUNCATE kept (unmounted store)");
  command->require_subcommand(1);
  command->footer(
      "DROP TABLE, DROP KEYSPACE and TRUNCATE (rm -r of a table directory too) keep each\n"
      "table they remove as a snapshot, as Cassandra's auto_snapshot does: its data stays\n"
      "in the store, so taking one costs the same for any table. A snapshot is named\n"
      "dropped-MILLIS-KS.TABLE or truncated-MILLIS-KS.TABLE. The store must not be mounted.\n" +
      std::string(kStoreSpellingHelp));
  CLI::App* list = command->add_subcommand("list", "List the snapshots, oldest first");
  list->add_option("DATADIR", args->data_dir, "The store's data directory")
      ->required()
      ->check(kStoreSpelling);
  list->footer(kStoreSpellingHelp);
  list->callback([args] { args->action = SnapshotArgs::Action::kList; });
  CLI::App* restore =
      command->add_subcommand("restore", "Make a snapshot's table again over its kept data");
  restore->add_option("DATADIR", args->data_dir, "The store's data directory")
      ->required()
      ->check(kStoreSpelling);
  restore->add_option("NAME", args->names, "The snapshot")->required()->expected(1);
  restore->add_option("--as", args->as_table, "Restore as this table of the same keyspace");
  restore->footer(
      "The table must not exist (drop it first: that keeps its own snapshot). The keyspace\n"
      "and the user types the table needs are made when missing; its indexes are made and\n"
      "built again (those whose names another index took are named and skipped);\n"
      "materialized views are not restored. The snapshot is gone once restored.\n" +
      std::string(kStoreSpellingHelp));
  restore->callback([args] { args->action = SnapshotArgs::Action::kRestore; });
  CLI::App* clear =
      command->add_subcommand("clear", "Forget snapshots and reclaim the space they hold");
  clear->add_option("DATADIR", args->data_dir, "The store's data directory")
      ->required()
      ->check(kStoreSpelling);
  clear->footer(kStoreSpellingHelp);
  clear->add_option("NAME", args->names, "The snapshots to clear");
  clear->add_flag("--all", args->all, "Clear every snapshot");
  clear->callback([args] {
    if (args->names.empty() && !args->all) {
      throw CLI::ValidationError("NAME", "name the snapshots to clear, or give --all");
    }
    args->action = SnapshotArgs::Action::kClear;
  });
  return command;
}

CLI::App* AddStatus(CLI::App& app, StatusArgs* args) {
  CLI::App* command = app.add_subcommand(
      "status", "Show every cellfs mount: data directory, daemon, commit mode, size, health");
  command->add_option("MOUNTPOINT", args->mount_points, "Only these mounts");
  command->add_flag("--json", args->json, "One JSON object per mount (MOUNTPOINT/@status)");
  command->footer(
      "Lists the cellfs mounts of this mount namespace from /proc/self/mountinfo and\n"
      "reads each one's MOUNTPOINT/@status: the data directory, the daemon's pid, the\n"
      "commit mode, the store's size, whether writes are taken (a failed disk write\n"
      "stops them until a remount) and the refusals since the mount. A mount that does\n"
      "not answer within 3 s is listed as such. Exits 1 when a mount does not answer,\n"
      "cannot be read or refuses writes (a read-only mount too), 0 otherwise.");
  return command;
}

CLI::App* AddCql(CLI::App& app, CqlArgs* args) {
  CLI::App* cql = app.add_subcommand("cql", "Run CQL statements (DDL) on a mount");
  cql->add_option("MOUNTPOINT", args->mount_point, "A cellfs mount")->required();
  CLI::Option* statement =
      cql->add_option("-e,--execute", args->statement, "Run this statement (';' optional)");
  cql->add_option("-f,--file", args->file, "Run the statements in FILE ('-': stdin)")
      ->excludes(statement);
  cql->footer(
      "Runs CQL statements (CREATE/ALTER/DROP KEYSPACE, TABLE, TYPE; USE) through\n"
      "MOUNTPOINT/@cql; without -e or -f they are read from stdin. Prints one line per\n"
      "statement, \"OK ...\" on stdout and \"ERROR line L:C: ...\" on stderr; exits 1\n"
      "when any statement failed. With neither, on a terminal: an interactive shell\n"
      "like cqlsh (HELP lists what it takes; history in ~/.cellfs_history).");
  return cql;
}

// The KS.TABLE argument of load, dump and stats, split at its one '.'.
void AddTableArgument(CLI::App* command, std::string* keyspace, std::string* table) {
  command
      ->add_option_function<std::string>(
          "KS.TABLE",
          [keyspace, table](const std::string& name) {
            size_t dot = name.find('.');
            if (dot == 0 || dot == std::string::npos || dot + 1 == name.size() ||
                name.find('.', dot + 1) != std::string::npos) {
              throw CLI::ValidationError("KS.TABLE", "expected KEYSPACE.TABLE, got '" + name + "'");
            }
            *keyspace = name.substr(0, dot);
            *table = name.substr(dot + 1);
          },
          "The table, as KEYSPACE.TABLE (the names of its directories)")
      ->required();
}

// MOUNTPOINT (or, with --offline, DATADIR) and KS.TABLE.
void AddSourceArguments(CLI::App* command, std::string* source, bool* offline,
                        std::string* keyspace, std::string* table) {
  command->add_flag("--offline", *offline,
                    "Work on the data directory DATADIR, which must not be mounted, instead of "
                    "a mount");
  command->add_option("MOUNTPOINT", *source, "A cellfs mount (with --offline: DATADIR)")
      ->required();
  AddTableArgument(command, keyspace, table);
  // After parsing, when --offline is known, whatever the order given.
  command->callback([source, offline] {
    cellfs::Status checked = cellfs::tools::CheckSourceArgument(*source, *offline);
    if (!checked.ok())
      throw CLI::ValidationError(*offline ? "DATADIR" : "MOUNTPOINT", checked.message());
  });
}

CLI::App* AddLoad(CLI::App& app, LoadArgs* args) {
  CLI::App* load = app.add_subcommand("load", "Bulk-load JSON Lines or CSV files into a table");
  AddSourceArguments(load, &args->target, &args->offline, &args->keyspace, &args->table);
  load->add_option("FILE", args->files, "Files to load ('-': stdin)")->required();
  load->add_option("--ttl", args->ttl, "A TTL in seconds for every record without its own \"@ttl\"")
      ->type_name("SECONDS");
  load->add_option("--timestamp", args->timestamp,
                   "A write time in microseconds for every record without its own \"@timestamp\"")
      ->type_name("MICROS");
  load->add_option("--skip-rows", args->skip_rows,
                   "Skip the first N records of each FILE (after a CSV header), as cqlsh "
                   "COPY's SKIPROWS: resumes an interrupted load")
      ->type_name("N");
  load->add_option("--max-errors", args->max_errors,
                   "Stop once more than N records were refused, over all files (cqlsh COPY's "
                   "MAXPARSEERRORS); -1: no limit")
      ->type_name("N");
  load->add_option("--errfile", args->errfile,
                   "Write the refused records' rows to FILE, to fix and load again (cqlsh "
                   "COPY's ERRFILE)")
      ->type_name("FILE");
  load->footer(
      "Each FILE holds JSON Lines (one object per line, every key column present) or\n"
      "CSV with a header line, and is written to MOUNTPOINT/KS/TABLE/@insert. Valid\n"
      "records are stored; each refused one is printed to stderr as \"FILE: line N:\n"
      "message\" (the first 100 of a file; --errfile keeps all their rows). Prints \"loaded FILE: "
      "N rows stored, M refused, R lines/s\" per file\n"
      "(with a progress bar on a terminal). Exits 1 when any record was refused or\n"
      "anything failed. If the mount fails meanwhile, it prints which rows are stored\n"
      "and the --skip-rows that resumes after them.\n"
      "With --offline the records go straight into DATADIR (synced at the end).\n" +
      std::string(kStoreSpellingHelp));
  return load;
}

CLI::App* AddDemo(CLI::App& app, DemoArgs* args) {
  CLI::App* demo = app.add_subcommand("demo", "Mount a demo store with example tables and data");
  demo->add_option("DIR", args->dir, "Where the demo lives: DIR/data and DIR/mnt")
      ->capture_default_str();
  demo->footer(
      "Creates DIR/data and mounts it at DIR/mnt, then creates keyspace demo with a\n"
      "time-bucketed log table, users looked up by email and by id, and newest-first\n"
      "notification lists whose newest entries expire in an hour, loads them through\n"
      "@cql and @insert, and prints commands to try. Run again to remount.");
  return demo;
}

CLI::App* AddDump(CLI::App& app, DumpArgs* args) {
  CLI::App* dump = app.add_subcommand("dump", "Write a whole table as JSON Lines or CSV");
  AddSourceArguments(dump, &args->source, &args->offline, &args->keyspace, &args->table);
  dump->add_flag("--csv", args->csv, "CSV with a header line (as COPY TO) instead of JSON Lines");
  dump->add_option("-o,--output", args->output, "Write to FILE instead of stdout")
      ->type_name("FILE");
  dump->footer(
      "Copies MOUNTPOINT/KS/TABLE/@json (or @csv): every row, in token order, from one\n"
      "snapshot. The output loads back with `cellfs load`. With --offline DATADIR is\n"
      "opened read-only.\n" +
      std::string(kStoreSpellingHelp));
  return dump;
}

CLI::App* AddStats(CLI::App& app, StatsArgs* args) {
  CLI::App* stats = app.add_subcommand("stats", "Show a table's partition sizes and token spread");
  AddSourceArguments(stats, &args->source, &args->offline, &args->keyspace, &args->table);
  stats->add_flag("--json", args->json, "Print the statistics as one JSON object");
  stats->add_option("--plot", args->plot, "Also draw them as an SVG picture in FILE")
      ->type_name("FILE.svg");
  stats->footer(
      "Prints MOUNTPOINT/KS/TABLE/@stats (or @stats.json): counts, rows and bytes per\n"
      "partition (percentiles), the widest partitions, how partitions would spread\n"
      "over rings of 3, 6 and 12 nodes, and warnings for partitions over the guidance\n"
      "(100000 rows, 100 MB). With --offline DATADIR is opened read-only.\n" +
      std::string(kStoreSpellingHelp));
  return stats;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app(
      "cellfs: a Cassandra-style partitioned store, served as a directory tree over "
      "FUSE.",
      "cellfs");
  const std::string version = std::string("cellfs ") + CELLFS_VERSION;
  app.set_version_flag("-V,--version", version);
  app.footer(
      "Example:\n"
      "  cellfs mount ~/cellfs-data /mnt/cellfs\n"
      "  cellfs cql /mnt/cellfs -e \"CREATE KEYSPACE demo WITH replication =\n"
      "      {'class': 'SimpleStrategy', 'replication_factor': 1}\"\n"
      "  mkdir /mnt/cellfs/demo/...; ls; cat; echo V > FILE\n"
      "  cellfs load /mnt/cellfs demo.users users.jsonl; cellfs dump /mnt/cellfs demo.users\n"
      "  cellfs umount /mnt/cellfs\n"
      "Run `cellfs SUBCOMMAND --help` for each subcommand's options.");
  // At most one; none is reported after parsing, so that an unknown option
  // (`cellfs --bogus`) is named as such first.
  app.require_subcommand(0, 1);
  MountArgs mount_args;
  UmountArgs umount_args;
  SyncArgs sync_args;
  ErrorsArgs errors_args;
  StatusArgs status_args;
  VerifyArgs verify_args;
  SnapshotArgs snapshot_args;
  CqlArgs cql_args;
  LoadArgs load_args;
  DumpArgs dump_args;
  StatsArgs stats_args;
  DemoArgs demo_args;
  CLI::App* mount = AddMount(app, &mount_args);
  CLI::App* umount = AddUmount(app, &umount_args);
  CLI::App* sync_command = AddSync(app, &sync_args);
  CLI::App* errors = AddErrors(app, &errors_args);
  CLI::App* status = AddStatus(app, &status_args);
  CLI::App* verify = AddVerify(app, &verify_args);
  CLI::App* snapshot = AddSnapshot(app, &snapshot_args);
  CLI::App* cql = AddCql(app, &cql_args);
  CLI::App* load = AddLoad(app, &load_args);
  CLI::App* dump = AddDump(app, &dump_args);
  CLI::App* stats = AddStats(app, &stats_args);
  CLI::App* demo = AddDemo(app, &demo_args);
  // `cellfs help [SUBCOMMAND]`, as git and ip have it.
  std::string help_topic;
  CLI::App* help = app.add_subcommand("help", "Show this help, or a subcommand's");
  help->add_option("SUBCOMMAND", help_topic, "The subcommand to explain");
  // `cellfs mount -V` too, and `cellfs snapshot list -V`.
  std::vector<CLI::App*> pending = app.get_subcommands({});
  while (!pending.empty()) {
    CLI::App* subcommand = pending.back();
    pending.pop_back();
    subcommand->set_version_flag("-V,--version", version);
    for (CLI::App* nested : subcommand->get_subcommands({})) pending.push_back(nested);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::RequiredError& e) {
    if (snapshot->parsed() && snapshot->get_subcommands().empty()) {
      std::fputs(
          "cellfs snapshot: an action is required: list, restore or clear (cellfs help "
          "snapshot)\n",
          stderr);
      return 2;
    }
    // CLI11 checks required positionals before unknown arguments, so
    // `cellfs mount --bogus` would say "DATADIR is required": name the
    // unknown option, the user's actual mistake.
    std::vector<std::string> extra = app.remaining(true);
    if (std::any_of(extra.begin(), extra.end(),
                    [](const std::string& arg) { return arg.starts_with('-'); })) {
      return app.exit(CLI::ExtrasError(extra)) == 0 ? 0 : 2;
    }
    return app.exit(e) == 0 ? 0 : 2;
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;  // usage errors exit 2, as getopt tools do
  }
  if (help->parsed()) {
    // The formatter directly: App::help() would explain `help` itself, the
    // subcommand that was parsed.
    if (help_topic.empty()) {
      std::fputs(app.get_formatter()->make_help(&app, "cellfs", CLI::AppFormatMode::Normal).c_str(),
                 stdout);
      return 0;
    }
    CLI::App* topic = nullptr;
    try {
      topic = app.get_subcommand(help_topic);
    } catch (const CLI::OptionNotFound&) {
      std::fprintf(stderr, "cellfs help: no subcommand %s (cellfs help lists them)\n",
                   help_topic.c_str());
      return 2;
    }
    std::fputs(topic->get_formatter()
                   ->make_help(topic, "cellfs " + help_topic, CLI::AppFormatMode::Normal)
                   .c_str(),
               stdout);
    return 0;
  }
  if (app.get_subcommands().empty()) {
    std::fputs("cellfs: a subcommand is required (cellfs help lists them)\n", stderr);
    return 2;
  }
  if (mount->parsed()) return cellfs::tools::RunMount(mount_args);
  if (umount->parsed()) return cellfs::tools::RunUmount(umount_args);
  if (sync_command->parsed()) return cellfs::tools::RunSync(sync_args);
  if (errors->parsed()) return cellfs::tools::RunErrors(errors_args);
  if (status->parsed()) return cellfs::tools::RunStatus(status_args);
  if (verify->parsed()) return cellfs::tools::RunVerify(verify_args);
  if (snapshot->parsed()) return cellfs::tools::RunSnapshot(snapshot_args);
  if (cql->parsed()) return cellfs::tools::RunCql(cql_args);
  if (load->parsed()) return cellfs::tools::RunLoad(load_args);
  if (dump->parsed()) return cellfs::tools::RunDump(dump_args);
  if (stats->parsed()) return cellfs::tools::RunStats(stats_args);
  if (demo->parsed()) return cellfs::tools::RunDemo(demo_args);
  return 2;
}
