// The cellfs command line: parses the subcommands with CLI11 and hands each
// to its runner (mount_command, umount_command, cql_command).
#include <CLI/CLI.hpp>
#include <string>

#include "tools/cellfs/cql_command.h"
#include "tools/cellfs/mount_command.h"
#include "tools/cellfs/mount_options.h"
#include "tools/cellfs/umount_command.h"

namespace {

using cellfs::tools::CqlArgs;
using cellfs::tools::MountArgs;
using cellfs::tools::UmountArgs;

CLI::App* AddMount(CLI::App& app, MountArgs* args) {
  CLI::App* mount = app.add_subcommand("mount", "Serve the store in DATADIR at MOUNTPOINT");
  mount->add_flag("-f,--foreground", args->foreground,
                  "Stay in the foreground and log to stderr; Ctrl-C unmounts");
  mount->add_option("-o", args->options, "Mount options, comma-separated (see below)")
      ->type_name("OPTIONS")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  mount->add_option("DATADIR", args->data_dir, "The data directory (outside MOUNTPOINT)")
      ->required();
  mount->add_option("MOUNTPOINT", args->mount_point, "An existing directory")->required();
  mount->footer(std::string(
      "DATADIR is created (mode 0700) when missing and must not be inside MOUNTPOINT.\n"
      "The command returns once the mount is live; the daemon then runs in the\n"
      "background, logging to syslog, until `cellfs umount MOUNTPOINT`.\n\n") +
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
      "when any statement failed.");
  return cql;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("cellfs: a Cassandra-style partitioned store, served as a directory tree over "
               "FUSE.",
               "cellfs");
  app.set_version_flag("--version", std::string("cellfs ") + CELLFS_VERSION);
  app.footer(
      "Example:\n"
      "  cellfs mount ~/cellfs-data /mnt/cellfs\n"
      "  cellfs cql /mnt/cellfs -e \"CREATE KEYSPACE demo WITH replication =\n"
      "      {'class': 'SimpleStrategy', 'replication_factor': 1}\"\n"
      "  mkdir /mnt/cellfs/demo/...; ls; cat; echo V > FILE\n"
      "  cellfs umount /mnt/cellfs\n"
      "Run `cellfs SUBCOMMAND --help` for each subcommand's options.");
  app.require_subcommand(1, 1);
  MountArgs mount_args;
  UmountArgs umount_args;
  CqlArgs cql_args;
  CLI::App* mount = AddMount(app, &mount_args);
  CLI::App* umount = AddUmount(app, &umount_args);
  CLI::App* cql = AddCql(app, &cql_args);
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;  // usage errors exit 2, as getopt tools do
  }
  if (mount->parsed()) return cellfs::tools::RunMount(mount_args);
  if (umount->parsed()) return cellfs::tools::RunUmount(umount_args);
  if (cql->parsed()) return cellfs::tools::RunCql(cql_args);
  return 2;
}
