//! Sorting, running sums and arg-reductions (tenferro/ops_order.h) through the safe wrappers.
use tenferro::{Context, Tensor};

#[test]
fn order_functions() {
    let ctx = Context::new().unwrap();
    let x = Tensor::from_slice(&ctx, &[3.0f64, 1.0, 2.0], &[3]).unwrap();
    let i = tenferro::argsort(&x, 0, false).unwrap();
    assert_eq!(i.to_vec::<i64>().unwrap(), vec![1, 2, 0]);
    let c = tenferro::cumsum(&x, 0).unwrap();
    assert_eq!(c.to_vec::<f64>().unwrap(), vec![3.0, 4.0, 6.0]);
    let (v, k) = tenferro::topk(&x, 2, 0, true).unwrap();
    assert_eq!(v.to_vec::<f64>().unwrap(), vec![3.0, 2.0]);
    assert_eq!(k.to_vec::<i64>().unwrap(), vec![0, 2]);
    assert_eq!(
        tenferro::argmin(&x, 0).unwrap().to_vec::<i64>().unwrap(),
        vec![1]
    );
}
