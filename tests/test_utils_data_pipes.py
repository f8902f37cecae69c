"""torch.utils.data's DataPipes against torch 2.13: the ``iter`` and ``map`` pipes and their
functional forms, the single-iterator rule, the decorators, the graph tools, seeded
shuffling, and ``DataLoader`` over DataPipes (with the emulated workers)."""

import functools
import warnings

import pytest
from _oracle import same_outcome


def It(T):
    return T.utils.data.datapipes.iter


def Mp(T):
    return T.utils.data.datapipes.map


def double(x):
    return x * 2


def is_odd(x):
    return x % 2 == 1


def add(a, b):
    return a + b


def kinds(items):
    """Each item with its type's name (a DataChunk is compared as what it is)."""
    return [(type(item).__name__, list(item) if isinstance(item, list) else item)
            for item in items]


def quiet(fn):
    """``fn`` with the lambda/local-function warnings silenced."""
    @functools.wraps(fn)
    def run(T):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return fn(T)
    return run


# -- pipelines ----------------------------------------------------------------------------------

PIPELINES = {
    "map_filter_batch": lambda T: kinds(It(T).IterableWrapper(range(10)).map(double)
                                        .filter(lambda x: x % 3 == 0).batch(3)),
    "classes": lambda T: kinds(It(T).Batcher(It(T).Filter(It(T).Mapper(
        It(T).IterableWrapper(range(7)), functools.partial(add, 1)), is_odd), 2, drop_last=True)),
    "batch_drop_last": lambda T: kinds(It(T).IterableWrapper(range(7)).batch(3, drop_last=True)),
    "unbatch": lambda T: [list(It(T).IterableWrapper([[[0, 1], [2]], [[3]]]).unbatch(level))
                          for level in (0, 1, 2, -1)],
    "collate": lambda T: list(It(T).IterableWrapper(range(6)).batch(3).collate()),
    "collate_fn": lambda T: list(It(T).IterableWrapper(range(4)).batch(2)
                                 .collate(collate_fn=sum)),
    "concat": lambda T: list(It(T).IterableWrapper(range(3)).concat(It(T).IterableWrapper("ab"))),
    "zip": lambda T: list(It(T).IterableWrapper(range(3)).zip(It(T).IterableWrapper("abcd"))),
    "mux": lambda T: list(It(T).IterableWrapper(range(3)).mux(It(T).IterableWrapper(range(5, 10)))),
    "fork": lambda T: [list(child) for child in It(T).IterableWrapper(range(4)).fork(3)],
    "fork_zip": lambda T: list(It(T).Zipper(*It(T).IterableWrapper(range(4)).fork(2))),
    "fork_one": lambda T: type(It(T).IterableWrapper(range(4)).fork(1)).__name__,
    "fork_copy": lambda T: [a is b for a, b in zip(*It(T).IterableWrapper([[1], [2]])
                                                    .fork(2, copy="shallow"))],
    "demux": lambda T: [list(c) for c in It(T).IterableWrapper(range(10)).demux(3, is_odd)],
    "demux_drop_none": lambda T: [list(c) for c in It(T).IterableWrapper(range(8)).demux(
        2, lambda x: None if x % 3 == 0 else x % 2, drop_none=True)],
    "groupby": lambda T: kinds(It(T).IterableWrapper(
        ["a.png", "b.png", "a.json", "b.json", "a.jpg", "c.json"]).groupby(
        lambda f: f[0], buffer_size=3, group_size=3, guaranteed_group_size=2)),
    "groupby_keep_key": lambda T: list(It(T).IterableWrapper(range(10)).groupby(
        lambda x: x % 3, keep_key=True, group_size=2)),
    "groupby_drop": lambda T: list(It(T).IterableWrapper(range(12)).groupby(
        lambda x: x % 4, buffer_size=4, group_size=3, guaranteed_group_size=2,
        drop_remaining=True)),
    "sampler": lambda T: list(It(T).Sampler(It(T).IterableWrapper(range(4, 8)))),
    "map_input_cols": lambda T: list(It(T).IterableWrapper([(1, 2, 3), (4, 5, 6)])
                                     .map(add, input_col=[0, 2])),
    "map_output_col": lambda T: list(It(T).IterableWrapper([[1, 2], [3, 4]])
                                     .map(double, input_col=1, output_col=-1)),
    "map_dict_col": lambda T: list(It(T).IterableWrapper([{"a": 1}, {"a": 2}])
                                   .map(double, input_col="a", output_col="b")),
    "filter_col": lambda T: list(It(T).IterableWrapper([(1, 2), (2, 3)])
                                 .filter(is_odd, input_col=1)),
    "wrapper_deepcopy": lambda T: (lambda data: (list(It(T).IterableWrapper(data).map(
        lambda x: x.append(9) or x)), data))([[1], [2]]),
    "sequence_wrapper": lambda T: (Mp(T).SequenceWrapper({"a": 1})["a"],
                                   list(Mp(T).SequenceWrapper(range(4)))),
    "map_pipes": lambda T: (kinds(Mp(T).SequenceWrapper(range(5)).map(double).batch(2)),
                            Mp(T).SequenceWrapper(range(5)).zip(Mp(T).SequenceWrapper("abc"))[2],
                            list(Mp(T).SequenceWrapper(range(2)).concat(
                                Mp(T).SequenceWrapper(range(3))))),
    "map_classes": lambda T: list(Mp(T).Batcher(Mp(T).Mapper(Mp(T).SequenceWrapper(range(5))),
                                                2, drop_last=True)),
}


@pytest.mark.parametrize("name", PIPELINES)
def test_pipeline(name):
    same_outcome(quiet(PIPELINES[name]))


LENGTHS = {
    "batch": lambda T: [len(It(T).IterableWrapper(range(10)).batch(3, drop_last=d))
                        for d in (False, True)],
    "map_zip_concat": lambda T: [len(It(T).IterableWrapper(range(4)).map(double)
                                     .zip(It(T).IterableWrapper(range(3)))),
                                 len(It(T).IterableWrapper(range(4)).concat(
                                     It(T).IterableWrapper(range(3))))],
    "mux": lambda T: len(It(T).IterableWrapper(range(4)).mux(It(T).IterableWrapper(range(3)))),
    "fork": lambda T: len(It(T).IterableWrapper(range(4)).fork(2)[1]),
    "shuffle_sampler": lambda T: [len(It(T).IterableWrapper(range(4)).shuffle()),
                                  len(It(T).Sampler(It(T).IterableWrapper(range(4))))],
    "map_pipes": lambda T: [len(Mp(T).SequenceWrapper(range(5)).batch(2)),
                            len(Mp(T).SequenceWrapper(range(5)).batch(2, drop_last=True)),
                            len(Mp(T).SequenceWrapper(range(5)).shuffle()),
                            len(Mp(T).SequenceWrapper(range(5)).zip(Mp(T).SequenceWrapper("ab")))],
    "no_len_wrapper": lambda T: len(It(T).IterableWrapper(iter(range(3)))),
    "no_len_map": lambda T: len(It(T).IterableWrapper(iter(range(3))).map(double)),
    "no_len_filter": lambda T: len(It(T).IterableWrapper(range(3)).filter(is_odd)),
    "no_len_batch": lambda T: len(It(T).IterableWrapper(range(3)).filter(is_odd).batch(2)),
    "no_len_demux": lambda T: len(It(T).IterableWrapper(range(4)).demux(2, is_odd)[0]),
    "no_len_custom": lambda T: len(type("P", (T.utils.data.IterDataPipe,), {})()),
}


@pytest.mark.parametrize("name", LENGTHS)
def test_len(name):
    same_outcome(quiet(LENGTHS[name]))


ERRORS = {
    "batch_size": lambda T: It(T).IterableWrapper(range(3)).batch(0),
    "map_batch_size": lambda T: Mp(T).SequenceWrapper(range(3)).batch(-1),
    "map_output_col": lambda T: It(T).IterableWrapper(range(3)).map(double, output_col=1),
    "map_output_cols": lambda T: It(T).IterableWrapper(range(3)).map(add, [0, 1], [0, 1]),
    "map_arity": lambda T: It(T).IterableWrapper(range(3)).map(double, input_col=[0, 1]),
    "map_arity_few": lambda T: It(T).IterableWrapper(range(3)).map(add, input_col=0),
    "map_keyword_only": lambda T: It(T).IterableWrapper(range(3)).map(
        lambda x, *, k: x, input_col=0),
    "not_callable": lambda T: It(T).IterableWrapper(range(3)).map(3),
    "filter_not_bool": lambda T: list(It(T).IterableWrapper([1, 0]).filter(lambda x: x)),
    "fn_raises": lambda T: list(It(T).IterableWrapper([1, 0]).map(lambda x: 1 / x).batch(2)),
    "error_no_args": lambda T: list(It(T).IterableWrapper([{}]).map(
        lambda d: d.popitem() and None)),
    "unbatch_depth": lambda T: list(It(T).IterableWrapper([[1], [2]]).unbatch(2)),
    "unbatch_level": lambda T: list(It(T).IterableWrapper([[1], [2]]).unbatch(-2)),
    "shuffle_buffer": lambda T: It(T).IterableWrapper(range(3)).shuffle(buffer_size=0),
    "concat_empty": lambda T: It(T).Concater(),
    "concat_type": lambda T: It(T).Concater(It(T).IterableWrapper(range(3)), [1]),
    "zip_type": lambda T: It(T).IterableWrapper(range(3)).zip([1]),
    "fork_instances": lambda T: It(T).IterableWrapper(range(3)).fork(0),
    "fork_copy": lambda T: It(T).IterableWrapper(range(3)).fork(2, copy="none"),
    "fork_buffer": lambda T: list(It(T).IterableWrapper(range(5)).fork(2, buffer_size=2)[0]),
    "demux_label": lambda T: list(It(T).IterableWrapper(range(5)).demux(2, lambda x: x)[0]),
    "demux_buffer": lambda T: list(It(T).IterableWrapper(range(6)).demux(
        2, is_odd, buffer_size=1)[0]),
    "groupby_sizes": lambda T: It(T).IterableWrapper(range(3)).groupby(
        is_odd, buffer_size=2, group_size=3),
    "groupby_guaranteed": lambda T: It(T).IterableWrapper(range(3)).groupby(
        is_odd, guaranteed_group_size=2),
    "groupby_failed": lambda T: list(It(T).IterableWrapper(range(12)).groupby(
        lambda x: x % 4, buffer_size=4, group_size=3, guaranteed_group_size=2)),
    "sampler_unsized": lambda T: It(T).Sampler(It(T).IterableWrapper(range(3)).filter(is_odd)),
    "sharding_instance": lambda T: It(T).IterableWrapper(range(3)).sharding_filter()
    .apply_sharding(2, 2),
    "sharding_mix": lambda T: _sharding_mix(T),
    "map_zip_index": lambda T: Mp(T).SequenceWrapper(range(5)).zip(Mp(T).SequenceWrapper("ab"))[3],
    "map_concat_index": lambda T: Mp(T).SequenceWrapper(range(2)).concat(
        Mp(T).SequenceWrapper(range(2)))[4],
    "map_concat_type": lambda T: Mp(T).Concater(Mp(T).SequenceWrapper(range(2)), [1]),
    "map_zip_empty": lambda T: Mp(T).Zipper(),
    "map_batch_index": lambda T: Mp(T).SequenceWrapper(range(5)).batch(2, drop_last=True)[2],
    "no_attribute": lambda T: It(T).IterableWrapper(range(3)).no_such_function,
    "map_no_attribute": lambda T: Mp(T).SequenceWrapper(range(3)).filter,
    "name_taken": lambda T: T.utils.data.functional_datapipe("map")(
        type("Mine", (T.utils.data.IterDataPipe,), {})),
}


def _sharding_mix(T):
    dp = It(T).ShardingFilter(It(T).IterableWrapper(range(3)))
    dp.apply_sharding(2, 0, It(T).sharding.SHARDING_PRIORITIES.DISTRIBUTED)
    dp.apply_sharding(2, 0)


@pytest.mark.parametrize("name", ERRORS)
def test_error(name):
    same_outcome(quiet(ERRORS[name]))


def test_lambda_and_local_function_warnings():
    def scenario(T):
        def local(x):
            return x
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            It(T).IterableWrapper(range(3)).map(lambda x: x).filter(local)
            It(T).IterableWrapper(range(3)).map(functools.partial(add, 1))
            It(T).IterableWrapper(range(3)).fork(-1 + 3, buffer_size=-1)
        return [(w.category.__name__, str(w.message)) for w in caught]

    same_outcome(scenario)


# -- printing, DataChunk, the base classes ---------------------------------------------------------

def test_reprs():
    def scenario(T):
        pipes = [It(T).IterableWrapper(range(3)), It(T).IterableWrapper(range(3)).map(double),
                 It(T).IterableWrapper(range(3)).shuffle(), Mp(T).SequenceWrapper("ab"),
                 Mp(T).SequenceWrapper("ab").shuffle(), It(T).IterableWrapper("ab").fork(2)[0],
                 T.utils.data.DFIterDataPipe()]
        return [(repr(dp), str(dp)) for dp in pipes]

    same_outcome(scenario)


def test_datachunk():
    def scenario(T):
        chunk = T.utils.data.DataChunk(iter([1, "a", [2]]))
        chunk.append(5)
        return (type(chunk).__name__, list(chunk), repr(chunk), chunk.as_str("  "),
                list(chunk.raw_iterator()), chunk.items, type(iter(chunk)).__name__,
                isinstance(chunk, list))

    same_outcome(scenario)


def test_functions_and_subclassing():
    def scenario(T):
        data = T.utils.data

        class Squares(data.IterDataPipe[int]):
            def __init__(self, n):
                self.n = n
                self.resets = 0

            def __iter__(self):
                yield from (i * i for i in range(self.n))

            def reset(self):
                self.resets += 1

        dp = Squares(4)
        out = [list(dp.map(double)), list(dp), dp.resets, sorted(data.MapDataPipe.functions)]
        out.append(sorted(set(data.IterDataPipe.functions) & {
            "map", "filter", "batch", "unbatch", "collate", "shuffle", "concat", "zip", "fork",
            "demux", "mux", "groupby", "sharding_filter"}))
        out.append(dp.map.__doc__ == It(T).Mapper.__doc__)
        out.append([isinstance(dp, c) for c in (data.IterableDataset, data.Dataset)])
        out.append(isinstance(Mp(T).SequenceWrapper([1]), data.Dataset))
        out.append("batch" in dir(dp))
        return out

    same_outcome(scenario)


def test_functional_datapipe_registers_a_new_name():
    def scenario(T):
        data = T.utils.data

        class Repeat(data.IterDataPipe):
            def __init__(self, source, times):
                self.source, self.times = source, times

            def __iter__(self):
                for item in self.source:
                    yield from [item] * self.times

        name = f"repeat_each_{T.__name__}"
        data.functional_datapipe(name)(Repeat)
        out = list(getattr(It(T).IterableWrapper(range(3)), name)(2))
        del data.IterDataPipe.functions[name]
        return out, data.functional_datapipe("x")(int)

    same_outcome(scenario)


def test_iterator_with_next():
    def scenario(T):
        class Counter(T.utils.data.IterDataPipe):
            def __init__(self):
                self.i = 0

            def __next__(self):
                self.i += 1
                if self.i > 3:
                    raise StopIteration
                return self.i

        dp = Counter()
        return list(dp), type(iter(dp)).__name__ == "Counter"

    same_outcome(scenario)


# -- one iterator per DataPipe ------------------------------------------------------------------

def _second_iterator(T, make):
    dp = make(T)
    first = iter(dp)
    a = next(first)
    second = iter(dp)
    return a, next(second), next(first)


@pytest.mark.parametrize("make", [
    lambda T: It(T).IterableWrapper(range(3)),
    lambda T: It(T).IterableWrapper(range(3)).map(double),
    lambda T: It(T).Sampler(It(T).IterableWrapper(range(3))).map(double),
    lambda T: Mp(T).SequenceWrapper(range(3)).shuffle().set_seed(1),
])
def test_second_iterator_invalidates_the_first(make):
    same_outcome(lambda T: _second_iterator(T, make))


def test_iterator_number_taken_at_first_next():
    def scenario(T):
        dp = It(T).IterableWrapper(range(3))
        first, second = iter(dp), iter(dp)
        return next(second), next(first), next(first), T.utils.data.graph.traverse_dps(dp) != {}

    same_outcome(scenario)


def test_children_share_an_iterator_number():
    def scenario(T):
        a, b = It(T).IterableWrapper(range(4)).fork(2)
        ia = iter(a)
        out = [next(ia)]
        ib = iter(b)
        out.append(next(ib))  # joins the round: no reset
        out.append(next(ia))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            ia2 = iter(a)
            out.append(next(ia2))  # a new round: the old iterators are stale
        out.append([str(w.message) for w in caught])
        try:
            next(ib)
        except RuntimeError as e:
            out.append(str(e))
        return out

    same_outcome(scenario)


# -- decorators -------------------------------------------------------------------------------

def _decorated(T):
    data = T.utils.data

    @data.non_deterministic
    class Random(data.IterDataPipe):
        def __iter__(self):
            yield 1

    @data.non_deterministic(lambda flag: flag)
    class Maybe(data.IterDataPipe):
        def __init__(self, flag):
            self.flag = flag

        def __iter__(self):
            yield self.flag

    return data, Random, Maybe


DECORATORS = {
    "non_deterministic": lambda T: (lambda d, r, m: (list(r()), list(m(True)),
                                                     type(r).__name__))(*_decorated(T)),
    "guaranteed": lambda T: (lambda d, r, m: _guaranteed(d, r))(*_decorated(T)),
    "guaranteed_fn": lambda T: (lambda d, r, m: _guaranteed(d, lambda: (m(False), m(True))))(
        *_decorated(T)),
    "guaranteed_restored": lambda T: (lambda d, r, m: (_guaranteed(d, lambda: 0), list(r())))(
        *_decorated(T)),
    "fn_not_bool": lambda T: T.utils.data.non_deterministic(lambda x: 1)(
        T.utils.data.IterDataPipe)(0),
    "bad_argument": lambda T: T.utils.data.non_deterministic(3),
    "not_a_pipe_class": lambda T: T.utils.data.non_deterministic(int),
    "fn_not_a_pipe": lambda T: T.utils.data.non_deterministic(lambda x: True)(int),
    "functional_on_decorated": lambda T: T.utils.data.functional_datapipe("x")(_decorated(T)[1]),
    "runtime_validation_name": lambda T: T.utils.data.runtime_validation(len),
    "runtime_validation": lambda T: list(_validated(T)()),
    "runtime_validation_disabled": lambda T: _disabled(T),
    "argument_validation_type": lambda T: _argument_checked(T)(3),
    "argument_validation_pipe": lambda T: _argument_checked(T)(It(T).IterableWrapper([1])),
    "argument_validation_other": lambda T: T.utils.data.argument_validation(
        lambda x, y=2: x + y)(1, y=3),
}


def _guaranteed(data, make):
    with data.guaranteed_datapipes_determinism():
        return make()


def _validated(T):
    class Validated(T.utils.data.IterDataPipe):
        @T.utils.data.runtime_validation
        def __iter__(self):
            yield 1
    return Validated


def _disabled(T):
    dp = _validated(T)()
    with T.utils.data.runtime_validation_disabled():
        return list(dp)


def _argument_checked(T):
    data = T.utils.data

    def take(dp: data.IterDataPipe):
        return "called"
    return data.argument_validation(take)


@pytest.mark.parametrize("name", DECORATORS)
def test_decorator(name):
    same_outcome(DECORATORS[name])


# -- graph ------------------------------------------------------------------------------------

def _shape(graph):
    return [(type(dp).__name__, _shape(sub)) for dp, sub in graph.values()]


def _graph_pipeline(T):
    src = It(T).IterableWrapper(range(4))
    a, b = src.fork(2)
    return a.zip(b).map(double).shuffle().sharding_filter().batch(2)


GRAPHS = {
    "fork_zip": lambda T: _shape(T.utils.data.graph.traverse_dps(_graph_pipeline(T))),
    "all_pipes": lambda T: [type(dp).__name__ for dp in T.utils.data.graph_settings
                            .get_all_graph_pipes(T.utils.data.graph.traverse_dps(
                                _graph_pipeline(T)))],
    "sampler": lambda T: _shape(T.utils.data.graph.traverse_dps(
        It(T).Sampler(It(T).IterableWrapper(range(3))))),
    "map": lambda T: _shape(T.utils.data.graph.traverse_dps(
        Mp(T).SequenceWrapper(range(3)).map(double).zip(Mp(T).SequenceWrapper("abc")).shuffle())),
    "wrapped_list": lambda T: _shape(T.utils.data.graph.traverse_dps(It(T).IterableWrapper(
        [It(T).IterableWrapper(range(2)), {"k": Mp(T).SequenceWrapper([1])}]))),
    "ids": lambda T: (lambda dp: list(T.utils.data.graph.traverse_dps(dp)) == [id(dp)])(
        It(T).IterableWrapper(range(2))),
    "not_a_pipe": lambda T: T.utils.data.graph.traverse_dps([1]),
    "traverse": lambda T: _shape(T.utils.data.graph.traverse(
        It(T).IterableWrapper(range(2)).map(double), only_datapipe=True)),
}


@pytest.mark.parametrize("name", GRAPHS)
def test_graph(name):
    same_outcome(quiet(GRAPHS[name]))


def test_traverse_warns():
    def scenario(T):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            T.utils.data.graph.traverse(It(T).IterableWrapper(range(2)))
            T.utils.data.graph_settings.apply_shuffle_seed(
                It(T).IterableWrapper(range(2)).shuffle(), T.Generator())
        return [(w.category.__name__, str(w.message)) for w in caught]

    same_outcome(scenario)


def _sharded(T, n, i, build):
    dp = build(T)
    T.utils.data.graph_settings.apply_sharding(dp, n, i)
    return list(dp), len(dp)


SHARDING = {
    "filter": lambda T: [_sharded(T, 3, i, lambda T: It(T).IterableWrapper(range(10))
                                  .sharding_filter().map(double)) for i in range(3)],
    "groups": lambda T: _groups(T),
    "twice": lambda T: _sharded(T, 2, 0, lambda T: It(T).IterableWrapper(range(4))
                                .sharding_filter().sharding_filter()),
    "branches": lambda T: _sharded(T, 2, 1, lambda T: It(T).IterableWrapper(range(4))
                                   .sharding_filter().zip(It(T).IterableWrapper(range(9))
                                                          .sharding_filter())),
}


def _groups(T):
    priorities = It(T).sharding.SHARDING_PRIORITIES
    dp = It(T).IterableWrapper(range(20)).sharding_filter()
    T.utils.data.graph_settings.apply_sharding(dp, 2, 1, priorities.DISTRIBUTED)
    T.utils.data.graph_settings.apply_sharding(dp, 3, 2, priorities.MULTIPROCESSING)
    return list(dp), len(dp), dp.num_of_instances, dp.instance_id


@pytest.mark.parametrize("name", SHARDING)
def test_sharding(name):
    same_outcome(SHARDING[name])


# -- seeded shuffling --------------------------------------------------------------------------

def _shuffled(T, build, seed=0):
    T.manual_seed(seed)
    dp = build(T)
    return list(dp), list(dp), T.rand(2)  # two orders, then where the generator stands


SHUFFLES = {
    "buffer": lambda T: It(T).IterableWrapper(range(20)).shuffle(buffer_size=5),
    "full": lambda T: It(T).IterableWrapper(range(20)).shuffle(),
    "unbatch_level": lambda T: It(T).IterableWrapper(range(12)).batch(3).shuffle(unbatch_level=1),
    "set_seed": lambda T: It(T).IterableWrapper(range(10)).shuffle().set_seed(123),
    "off": lambda T: It(T).IterableWrapper(range(10)).shuffle().set_shuffle(False),
    "map": lambda T: Mp(T).SequenceWrapper(range(12)).shuffle(),
    "map_indices": lambda T: Mp(T).SequenceWrapper("abcdef").shuffle(indices=[5, 1, 3]),
    "map_off": lambda T: Mp(T).SequenceWrapper("abc").shuffle().set_shuffle(False),
}


@pytest.mark.parametrize("name", SHUFFLES)
def test_seeded_shuffle(name):
    same_outcome(lambda T: _shuffled(T, SHUFFLES[name], seed=len(name)))


def test_apply_shuffle_settings_and_random_seed():
    def scenario(T):
        gs = T.utils.data.graph_settings
        dp = It(T).IterableWrapper(range(10)).shuffle().map(double).shuffle(buffer_size=3)
        out = [list(gs.apply_shuffle_settings(dp, shuffle=False))]
        out.append(gs.apply_shuffle_settings(dp, shuffle=None) is dp)
        gs.apply_shuffle_settings(dp, shuffle=True)
        generator = T.Generator()
        generator.manual_seed(5)
        out.append(list(gs.apply_random_seed(dp, generator)))
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            added = gs.apply_shuffle_settings(It(T).IterableWrapper(range(3)), shuffle=True)
        out += [type(added).__name__, [str(w.message) for w in caught]]
        return out

    same_outcome(scenario)


# -- DataLoader over DataPipes ------------------------------------------------------------------

def _loaded(T, options, build=None, passes=2):
    T.manual_seed(7)
    dp = (build or (lambda T: It(T).IterableWrapper(range(12)).shuffle().sharding_filter()
                    .map(double)))(T)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        loader = T.utils.data.DataLoader(dp, **options)
        out = [list(loader) for _ in range(passes)]
    return out, T.rand(3), type(loader.dataset).__name__


LOADERS = {
    "batched": dict(batch_size=4),
    "shuffle_true": dict(batch_size=4, shuffle=True),
    "shuffle_false": dict(batch_size=4, shuffle=False),
    "unbatched": dict(batch_size=None),
    "drop_last": dict(batch_size=5, drop_last=True),
    "workers": dict(batch_size=3, num_workers=2),
    "workers_shuffle_false": dict(batch_size=3, num_workers=2, shuffle=False),
    "persistent": dict(batch_size=3, num_workers=2, persistent_workers=True),
    "three_workers": dict(batch_size=None, num_workers=3, shuffle=True),
    "generator": dict(batch_size=4, generator="seeded"),
}


@pytest.mark.parametrize("name", LOADERS)
def test_dataloader_over_iter_pipe(name):
    def scenario(T):
        options = dict(LOADERS[name])
        if options.get("generator") == "seeded":
            options["generator"] = T.Generator()
            options["generator"].manual_seed(11)
        return _loaded(T, options)

    same_outcome(scenario)


def test_dataloader_workers_without_sharding_filter():
    same_outcome(lambda T: _loaded(T, dict(batch_size=2, num_workers=2),
                                   lambda T: It(T).IterableWrapper(range(6)).shuffle()))


def test_dataloader_over_map_pipe():
    same_outcome(lambda T: _loaded(T, dict(batch_size=3, shuffle=True, num_workers=2),
                                   lambda T: Mp(T).SequenceWrapper(range(10)).map(double)))


def test_dataloader_shuffle_without_shuffler():
    def scenario(T):
        T.manual_seed(3)
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            loader = T.utils.data.DataLoader(It(T).IterableWrapper(range(6)), batch_size=2,
                                             shuffle=True)
            return list(loader), [str(w.message) for w in caught]

    same_outcome(scenario)


DATALOADER_ERRORS = {
    "len": lambda T: len(T.utils.data.DataLoader(It(T).IterableWrapper(range(6)).filter(is_odd),
                                                 batch_size=2)),
    "len_sized": lambda T: len(T.utils.data.DataLoader(It(T).IterableWrapper(range(7)),
                                                       batch_size=2)),
    "sampler": lambda T: T.utils.data.DataLoader(It(T).IterableWrapper(range(6)),
                                                 sampler=[0, 1]),
}


@pytest.mark.parametrize("name", DATALOADER_ERRORS)
def test_dataloader_error(name):
    same_outcome(DATALOADER_ERRORS[name])


def test_dataloader_worker_sharding_error():
    def scenario(T):
        pipe = It(T).IterableWrapper(range(6)).sharding_filter().sharding_filter()
        try:
            list(T.utils.data.DataLoader(pipe, num_workers=1))
        except RuntimeError as e:  # (the traceback text in the message differs)
            lines = str(e).splitlines()
            return lines[0], lines[-1]

    same_outcome(scenario)


def test_serialization_wrapper():
    def scenario(T):
        loader = T.utils.data.DataLoader(It(T).IterableWrapper(range(3)))
        wrapper = loader.dataset
        out = [repr(wrapper), len(wrapper), list(wrapper)]
        fresh = type(wrapper)(It(T).IterableWrapper(range(3)))
        try:
            fresh.__next__()
        except AssertionError as e:
            out.append(str(e))
        return out

    same_outcome(scenario)


def test_pickle_and_copy_round_trip():
    def scenario(T):
        import copy
        import pickle

        T.manual_seed(2)
        dp = It(T).IterableWrapper(range(8)).map(double).shuffle().batch(3)
        again = pickle.loads(pickle.dumps(dp))
        copied = copy.deepcopy(Mp(T).SequenceWrapper(range(4)).map(double))
        return [list(b) for b in again], type(again).__name__, list(copied)

    same_outcome(scenario)


def _custom_pipe(T, kind):
    """A user's IterDataPipe whose ``__iter__`` fails at its second item."""
    class Failing(T.utils.data.IterDataPipe):
        def __init__(self, n, scale=2):
            self.n, self.scale = n, scale

        if kind == "generator":
            def __iter__(self):
                for i in range(self.n):
                    yield 1 // (i - 1)
        elif kind == "iterator":
            def __iter__(self):
                return iter([1 // (i - 1) for i in range(self.n)])
        else:
            def __iter__(self):
                raise KeyError(self.n)
                yield

    return Failing(3)


@pytest.mark.parametrize("kind", ["generator", "iterator", "no_message"])
def test_error_names_the_custom_pipe(kind):
    same_outcome(lambda T: list(_custom_pipe(T, kind)))


def test_iter_returning_self_is_checked():
    def scenario(T):
        class Counter(T.utils.data.IterDataPipe):
            def __iter__(self):
                self.i = 0
                return self

            def __next__(self):
                self.i += 1
                if self.i > 3:
                    raise StopIteration
                return self.i

        dp = Counter()
        first = iter(dp)
        next(first)
        second = iter(dp)
        return next(second), next(first)

    same_outcome(scenario)


def test_tensors_through_pipes():
    same_outcome(lambda T: (
        list(It(T).IterableWrapper([T.arange(3.), T.ones(3)]).batch(2).collate()),
        list(T.utils.data.DataLoader(It(T).IterableWrapper([(T.arange(3.), 1), (T.ones(3), 2)]),
                                     batch_size=2))))
