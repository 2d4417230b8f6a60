"""The trainer's command: `skyjo train` (docs/model-card.md). This module
imports no PyTorch: the command does when it runs, and says how to install it
when it is missing."""

from __future__ import annotations

from typing import Annotated

import typer

from skyjo.commandline import (
    JsonFlag,
    console,
    make_app,
    parse_whole_number,
    print_json,
    user_input,
)

#: The trainer's command, `skyjo train`.
commands = make_app()


@commands.command("train")
def train_command(
    out: Annotated[str, typer.Option(help="Folder of the run's files.")] = "runs/best",
    players: Annotated[str, typer.Option(help="Table sizes played, comma-separated.")] = "2,3,4",
    base_games: Annotated[
        str, typer.Option(help="Games of `expected` against itself, per table size.")
    ] = "48000,4000,12000",
    iterations: Annotated[int, typer.Option(help="Stages of self-play after them.")] = 1,
    selfplay_games: Annotated[
        str, typer.Option(help="Games of each self-play stage, per table size.")
    ] = "4000,400,1600",
    selfplay_weight: Annotated[
        float, typer.Option(help="Weight of the self-play games' positions in training.")
    ] = 3.0,
    keep: Annotated[float, typer.Option(help="Chance that a position is kept.")] = 0.35,
    hidden: Annotated[int, typer.Option(help="Width of the network's layers.")] = 64,
    base_steps: Annotated[int, typer.Option(help="Minibatches of the first fit.")] = 4000,
    steps: Annotated[int, typer.Option(help="Minibatches of each later fit.")] = 2000,
    batch: Annotated[int, typer.Option(help="Positions a minibatch.")] = 4096,
    lr: Annotated[float, typer.Option(help="Adam's largest learning rate.")] = 2e-3,
    margin: Annotated[
        float, typer.Option(help="The evaluated bot's guard (best:margin=...).")
    ] = 0.03,
    depth: Annotated[str, typer.Option(help="The evaluated bot's depth (shallow, full).")] = (
        "shallow"
    ),
    eval_games: Annotated[int, typer.Option(help="Games of each evaluation (2p).")] = 1000,
    seed: Annotated[int, typer.Option(help="Seed of the run.")] = 0,
    workers: Annotated[int, typer.Option(help="Processes playing games.")] = 2,
    threads: Annotated[int, typer.Option(help="PyTorch's threads.")] = 2,
    address: Annotated[
        str | None,
        typer.Option(help="A Ray cluster to play the games on ('local': a new local Ray)."),
    ] = None,
    resume: Annotated[bool, typer.Option(help="Go on after the folder's last stage.")] = False,
    as_json: JsonFlag = False,
) -> None:
    """Train the `best` bot's value by self-play on the kernel (docs/model-card.md)."""
    with user_input():
        try:
            from skyjo.train.command import train
            from skyjo.train.value_run import ValueConfig
        except ModuleNotFoundError as error:
            if error.name != "torch":
                raise
            raise ValueError("skyjo train needs PyTorch: pip install 'skyjo[train]'") from None

        def counts(text: str, option: str) -> tuple[int, ...]:
            return tuple(
                parse_whole_number(x, option, "whole numbers, comma-separated")
                for x in text.split(",")
            )

        config = ValueConfig(
            out=out,
            players=counts(players, "--players"),
            base_games=counts(base_games, "--base-games"),
            iterations=iterations,
            selfplay_games=counts(selfplay_games, "--selfplay-games"),
            selfplay_weight=selfplay_weight,
            keep=keep,
            hidden=hidden,
            base_steps=base_steps,
            steps=steps,
            batch=batch,
            lr=lr,
            margin=margin,
            depth=depth,
            eval_games=eval_games,
            seed=seed,
            workers=workers,
            threads=threads,
            address=address,
            resume=resume,
        )
        summary = train(config, show=not as_json)
    if as_json:
        print_json(summary)
    else:
        console().print(f"value: {summary['value']}")
