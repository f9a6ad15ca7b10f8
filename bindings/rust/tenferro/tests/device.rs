//! Placement through the safe wrappers: host tensors report the CPU; a transfer to a CUDA device
//! that is absent fails with Status::DEVICE; with a GPU, a round trip keeps the values; device
//! scopes place creation.
use tenferro::{on_device, Context, DType, Device, Status, Tensor};

#[test]
fn placement() {
    let ctx = Context::new().unwrap();
    let x = Tensor::from_slice(&ctx, &[1.0f64, 2.0, 3.0], &[3]).unwrap();
    assert_eq!(x.device().unwrap(), Device::Cpu);
    assert_eq!(x.to_device(Device::Cpu).unwrap().device().unwrap(), Device::Cpu);
    let n = tenferro::device_count().unwrap();
    let err = x.to_device(Device::Cuda(n + 3)).unwrap_err();
    assert_eq!(err.status, Status::DEVICE);
    if n == 0 {
        println!("SKIP: no CUDA device (round trip)");
        return;
    }
    let d = x.to_device(Device::Cuda(0)).unwrap();
    assert_eq!(d.device().unwrap(), Device::Cuda(0));
    let back = d.to_device(Device::Cpu).unwrap();
    assert_eq!(back.to_vec::<f64>().unwrap(), vec![1.0, 2.0, 3.0]);
}

#[test]
fn creation_in_a_device_scope() {
    let ctx = Context::new().unwrap();
    let n = tenferro::device_count().unwrap();
    assert_eq!(on_device(&ctx, Device::Cuda(n + 3)).unwrap_err().status, Status::DEVICE);
    {
        let _host = on_device(&ctx, Device::Cpu).unwrap();
        let z = Tensor::zeros(&ctx, DType::F64, &[2, 2]).unwrap();
        assert_eq!(z.device().unwrap(), Device::Cpu);
    }
    if n == 0 {
        println!("SKIP: no CUDA device (creation on a device)");
        return;
    }
    let z = {
        let _gpu = on_device(&ctx, Device::Cuda(0)).unwrap();
        Tensor::zeros(&ctx, DType::F64, &[2, 2]).unwrap()
    };
    assert_eq!(z.device().unwrap(), Device::Cuda(0));
    let after = Tensor::zeros(&ctx, DType::F64, &[2]).unwrap();
    assert_eq!(after.device().unwrap(), Device::Cpu);
}
