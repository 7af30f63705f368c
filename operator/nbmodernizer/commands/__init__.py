"""The command lines' subcommands: the only modules besides cli.py, cli_cluster.py and
kubectl_plugin.py that read argparse; each turns its flags into the typed options the domain
code takes."""
